package org.storeservice.examples.springboot;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import jakarta.jws.WebMethod;
import jakarta.jws.WebParam;
import jakarta.jws.WebResult;
import jakarta.jws.WebService;
import jakarta.jws.soap.SOAPBinding;
import jakarta.xml.bind.annotation.XmlEnum;
import jakarta.xml.bind.annotation.XmlEnumValue;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.ws.RequestWrapper;
import jakarta.xml.ws.ResponseWrapper;
import jakarta.xml.ws.Service;
import java.net.URL;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StoredEntry;

/**
 * The example application as a .NET-style client meets it: Apache CXF (JAX-WS) builds its ports from the WSDL
 * the application serves and calls both operations through the SOAP 1.1 and the SOAP 1.2 port. The application
 * runs as shipped, on a random port, with its storage swapped for memory by property.
 */
@Timeout(120)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT, properties = "store.storage=memory:")
class CxfClientTest {
    static final String NS = "http://tempuri.org/";

    @LocalServerPort
    private int port;
    @Autowired
    private Storage storage;

    @ParameterizedTest(name = "port {0}")
    @ValueSource(strings = {"StoreSoap", "StoreSoap12"})
    void bothOperationsThroughAPortBuiltFromTheServedWsdl(String portName) throws Exception {
        Service service = Service.create(new URL("http://localhost:" + port + "/API/Store.asmx?WSDL"),
                new QName(NS, "Store"));
        StoreSoap client = service.getPort(new QName(NS, portName), StoreSoap.class);

        assertEquals(WireStatus.SUCCESS, client.writeString(portName + "-text", "héllo <wörld> & all"));
        assertEquals(WireStatus.SUCCESS, client.writeBytes(portName + "-bytes", new byte[] {0, 1, 2, (byte) 0xFF}));
        assertEquals(WireStatus.ERROR, client.writeString("", "an empty key is refused"));

        StoredEntry text = storage.get(portName + "-text").orElseThrow();
        assertEquals(EntryKind.TEXT, text.kind());
        assertEquals("héllo <wörld> & all", text.text());
        StoredEntry bytes = storage.get(portName + "-bytes").orElseThrow();
        assertEquals(EntryKind.BYTES, bytes.kind());
        assertArrayEquals(new byte[] {0, 1, 2, (byte) 0xFF}, bytes.bytes());
    }

    /** The service's port type, written from the contract, as a generated .NET proxy would be. */
    @WebService(name = "StoreSoap", targetNamespace = NS)
    @SOAPBinding(style = SOAPBinding.Style.DOCUMENT, use = SOAPBinding.Use.LITERAL,
            parameterStyle = SOAPBinding.ParameterStyle.WRAPPED)
    public interface StoreSoap {
        @WebMethod(operationName = "WriteString", action = NS + "WriteString")
        @WebResult(name = "WriteStringResult", targetNamespace = NS)
        @RequestWrapper(localName = "WriteString", targetNamespace = NS)
        @ResponseWrapper(localName = "WriteStringResponse", targetNamespace = NS)
        WireStatus writeString(@WebParam(name = "key", targetNamespace = NS) String key,
                               @WebParam(name = "value", targetNamespace = NS) String value);

        @WebMethod(operationName = "WriteBytes", action = NS + "WriteBytes")
        @WebResult(name = "WriteBytesResult", targetNamespace = NS)
        @RequestWrapper(localName = "WriteBytes", targetNamespace = NS)
        @ResponseWrapper(localName = "WriteBytesResponse", targetNamespace = NS)
        WireStatus writeBytes(@WebParam(name = "key", targetNamespace = NS) String key,
                              @WebParam(name = "content", targetNamespace = NS) byte[] content);
    }

    /** The contract's {@code Status} simple type. */
    @XmlType(name = "Status", namespace = NS)
    @XmlEnum
    public enum WireStatus {
        @XmlEnumValue("Success") SUCCESS,
        @XmlEnumValue("Error") ERROR
    }
}
