package org.storeservice.codec.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.storeservice.codec.metadata.MetadataTestSupport.ENDPOINT;
import static org.storeservice.codec.metadata.MetadataTestSupport.XHTML;
import static org.storeservice.codec.metadata.MetadataTestSupport.attributes;
import static org.storeservice.codec.metadata.MetadataTestSupport.elements;
import static org.storeservice.codec.metadata.MetadataTestSupport.parse;
import static org.storeservice.codec.metadata.MetadataTestSupport.respond;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import javax.wsdl.Definition;
import javax.wsdl.factory.WSDLFactory;
import javax.wsdl.xml.WSDLReader;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Test;
import org.storeservice.codec.CodecRequest;
import org.storeservice.codec.Protocol;
import org.storeservice.codec.Protocols;
import org.storeservice.codec.StoreCodec;
import org.w3c.dom.Document;

/** What the WSDL, disco document and help pages leave out when protocols are off, as ASMX's reflectors do. */
class ProtocolMetadataTest {
    private static final String NS = StoreCodec.DEFAULT_NAMESPACE;
    private static final String WSDL = "http://schemas.xmlsoap.org/wsdl/";
    private static final String XSD = "http://www.w3.org/2001/XMLSchema";

    private static MetadataPages pages(Protocols protocols) {
        return new MetadataPages(NS, ENDPOINT, protocols, null);
    }

    private static Definition wsdl(Protocols protocols) throws Exception {
        byte[] body = respond(pages(protocols), "wsdl", "example.com").bodyBytes();
        WSDLReader reader = WSDLFactory.newInstance().newWSDLReader();
        reader.setFeature("javax.wsdl.verbose", false);
        reader.setFeature("javax.wsdl.importDocuments", false);
        return reader.readWSDL(null, parse(body, false));
    }

    private static Document helpPage(Protocols protocols, String operation, String remote) {
        CodecRequest.Builder request = CodecRequest.builder("GET", ENDPOINT).rawQuery("op=" + operation).header("Host", "h");
        if (remote != null) {
            request.clientAddresses(remote, "127.0.0.1");
        }
        return parse(pages(protocols).respond(request.build()).bodyBytes(), true);
    }

    /** The keys of a WSDL4J map (QNames or port names) as sorted local names. */
    private static List<String> names(Map<?, ?> map) {
        return map.keySet().stream().map(k -> k instanceof QName q ? q.getLocalPart() : (String) k).sorted().toList();
    }

    private static List<String> sampleHeadings(Document page) {
        return elements(page, XHTML, "h3").stream().map(e -> e.getTextContent()).toList();
    }

    @Test
    void withoutSoap12TheWsdlHasNoStoreSoap12BindingOrPort() throws Exception {
        Definition definition = wsdl(Protocols.all().without(Protocol.HTTP_SOAP12));

        assertNull(definition.getBinding(new QName(NS, "StoreSoap12")));
        assertNotNull(definition.getBinding(new QName(NS, "StoreSoap")));
        assertNotNull(definition.getBinding(new QName(NS, "StoreHttpGet")));
        assertNotNull(definition.getBinding(new QName(NS, "StoreHttpPost")));
        assertEquals(List.of("StoreHttpGet", "StoreHttpPost", "StoreSoap"),
                names(definition.getService(new QName(NS, "Store")).getPorts()));
        assertEquals(3, definition.getPortTypes().size());
    }

    @Test
    void withSoap12AloneItKeepsItsOwnPortTypeAndMessages() throws Exception {
        Definition definition = wsdl(Protocols.of(Protocol.HTTP_SOAP12, Protocol.DOCUMENTATION));

        assertEquals(new QName(NS, "StoreSoap12"), definition.getBinding(new QName(NS, "StoreSoap12")).getPortType().getQName());
        assertEquals(List.of("WriteBytesSoap12In", "WriteBytesSoap12Out", "WriteStringSoap12In", "WriteStringSoap12Out"),
                names(definition.getMessages()));
        String text = new String(respond(pages(Protocols.of(Protocol.HTTP_SOAP12)), "wsdl", "h").bodyBytes(), StandardCharsets.UTF_8);
        assertFalse(text.contains("AbstractTypes"), "no HTTP binding: no StringArray schema, no s1 prefix");
        assertFalse(text.contains("<s:element name=\"Status\""), "the Status root element is the HTTP bindings'");
    }

    @Test
    void withHttpAloneTheSchemaHasTheStatusElementThenItsType() throws Exception {
        Document wsdl = parse(respond(pages(Protocols.of(Protocol.HTTP_GET, Protocol.DOCUMENTATION)), "wsdl", "h").bodyBytes(), false);
        assertEquals(List.of("Status"), attributes(wsdl, XSD, "element", "name").stream().filter(n -> !n.equals("String")).toList());
        assertEquals(List.of("StoreHttpGet"), attributes(wsdl, WSDL, "binding", "name"));
        assertEquals(List.of("StoreHttpGet"), attributes(wsdl, WSDL, "portType", "name"));
        assertNotNull(wsdl(Protocols.of(Protocol.HTTP_GET)).getBinding(new QName(NS, "StoreHttpGet")));
    }

    @Test
    void httpPostLocalhostIsNotInTheWsdl() throws Exception {
        Definition definition = wsdl(Protocols.all().without(Protocol.HTTP_POST));
        assertNull(definition.getBinding(new QName(NS, "StoreHttpPost")));
        assertNotNull(definition.getBinding(new QName(NS, "StoreHttpGet")));
    }

    @Test
    void discoListsTheEnabledSoapPortsOnly() {
        Document disco = parse(respond(pages(Protocols.all().without(Protocol.HTTP_SOAP)), "disco", "h").bodyBytes(), false);
        assertEquals(List.of("q1:StoreSoap12"), attributes(disco, "http://schemas.xmlsoap.org/disco/soap/", "soap", "binding"));
    }

    @Test
    void helpPageLeavesOutTheSamplesOfDisabledProtocols() {
        assertEquals(List.of("Test", "SOAP 1.1", "SOAP 1.2", "HTTP GET", "HTTP POST"),
                sampleHeadings(helpPage(Protocols.all(), "WriteString", null)));
        Document withoutGet = helpPage(Protocols.all().without(Protocol.HTTP_GET), "WriteString", null);
        assertEquals(List.of("Test", "SOAP 1.1", "SOAP 1.2", "HTTP POST"), sampleHeadings(withoutGet));
        assertFalse(withoutGet.getDocumentElement().getTextContent().contains("GET /API/Store.asmx/WriteString"));
        assertEquals(List.of("Test", "SOAP 1.2"),
                sampleHeadings(helpPage(Protocols.of(Protocol.HTTP_SOAP12, Protocol.DOCUMENTATION), "WriteBytes", null)));
    }

    @Test
    void withOnlyHttpPostLocalhostTheLocalClientGetsTheTestFormAndPostSample() {
        Protocols protocols = Protocols.all().without(Protocol.HTTP_POST);
        Document remote = helpPage(protocols, "WriteString", "192.0.2.7");
        assertEquals(List.of("Test", "SOAP 1.1", "SOAP 1.2", "HTTP GET"), sampleHeadings(remote));
        assertTrue(remote.getDocumentElement().getTextContent()
                .contains("The test form is only available for requests from the local machine."));
        assertTrue(elements(remote, XHTML, "form").isEmpty());

        Document local = helpPage(protocols, "WriteString", "127.0.0.1");
        assertEquals(List.of("Test", "SOAP 1.1", "SOAP 1.2", "HTTP GET", "HTTP POST"), sampleHeadings(local));
        assertEquals(List.of("http://h/API/Store.asmx/WriteString"), attributes(local, XHTML, "form", "action"));
        // and the remote page is not served from the local one's cache entry, nor the other way round
        assertTrue(elements(helpPage(protocols, "WriteString", "192.0.2.7"), XHTML, "form").isEmpty());
    }

    @Test
    void withNoHttpPostAtAllNobodyGetsTheTestForm() {
        Protocols protocols = Protocols.all().without(Protocol.HTTP_POST).without(Protocol.HTTP_POST_LOCALHOST);
        assertTrue(elements(helpPage(protocols, "WriteString", "127.0.0.1"), XHTML, "form").isEmpty());
    }
}
