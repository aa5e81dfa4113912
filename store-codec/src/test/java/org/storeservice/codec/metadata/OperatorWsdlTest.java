package org.storeservice.codec.metadata;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.storeservice.codec.metadata.MetadataTestSupport.ENDPOINT;
import static org.storeservice.codec.metadata.MetadataTestSupport.resource;
import static org.storeservice.codec.metadata.MetadataTestSupport.respond;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.storeservice.codec.Protocol;
import org.storeservice.codec.Protocols;
import org.storeservice.codec.StoreCodec;

/** An operator's own WSDL: checked when the codec is built, served with its addresses rewritten per request. */
class OperatorWsdlTest {
    private static final String NS = StoreCodec.DEFAULT_NAMESPACE;
    /** Our generated WSDL as an operator would save it from a running server (addresses http://localhost:8080/...). */
    private static final String SAVED = new String(resource("store-tempuri-localhost-8080.wsdl"), StandardCharsets.UTF_8);

    private static MetadataPages serving(String wsdl, Protocols protocols) {
        return new MetadataPages(NS, ENDPOINT, protocols, wsdl);
    }

    private static String invalid(String wsdl, Protocols protocols) {
        return assertThrows(IllegalArgumentException.class, () -> serving(wsdl, protocols)).getMessage();
    }

    @Test
    void ourOwnSavedWsdlIsServedIdenticallyToTheGeneratedOneForAnyHost() {
        MetadataPages generated = new MetadataPages(NS, ENDPOINT);
        MetadataPages operator = serving(SAVED, Protocols.all());
        for (String host : new String[] {"localhost:8080", "store.example.com", "[::1]:9000", "h&x"}) {
            assertArrayEquals(respond(generated, "wsdl", host).bodyBytes(), respond(operator, "wsdl", host).bodyBytes(), host);
            assertEquals(respond(generated, "wsdl", host).headers(), respond(operator, "wsdl", host).headers());
        }
    }

    @Test
    void aBomAndUtf8BytesAreAccepted() {
        byte[] bytes = SAVED.getBytes(StandardCharsets.UTF_8);
        byte[] withBom = new byte[bytes.length + 3];
        withBom[0] = (byte) 0xEF;
        withBom[1] = (byte) 0xBB;
        withBom[2] = (byte) 0xBF;
        System.arraycopy(bytes, 0, withBom, 3, bytes.length);
        MetadataPages operator = serving(MetadataPages.decodeWsdl(withBom), Protocols.all());
        assertArrayEquals(bytes, respond(operator, "wsdl", "localhost:8080").bodyBytes());
        assertThrows(IllegalArgumentException.class, () -> MetadataPages.decodeWsdl(new byte[] {'<', (byte) 0xFF, '>'}));
    }

    @Test
    void everyPortAddressIsRewrittenToTheRequestsEndpointAndNothingElseChanges() {
        String modified = SAVED.replace("http://localhost:8080/API/Store.asmx", "https://old-iis.corp.example/Legacy/Store.asmx")
                .replace("<wsdl:types>", "<!-- generated 2012 {{not a placeholder}} -->\r\n  <wsdl:types>");
        String served = new String(respond(serving(modified, Protocols.all()), "wsdl", "new.example.com:8443").bodyBytes(),
                StandardCharsets.UTF_8);
        assertEquals(modified.replace("https://old-iis.corp.example/Legacy/Store.asmx", "http://new.example.com:8443/API/Store.asmx"),
                served);
    }

    @Test
    void aWsdlWithoutAnOperationIsRejectedSayingWhich() {
        String broken = SAVED.replaceAll("(?s)<wsdl:operation name=\"WriteBytes\">.*?</wsdl:operation>\\r\\n\\s*", "");
        assertEquals("WSDL: binding 'StoreSoap' has operations [WriteString], expected exactly [WriteBytes, WriteString]",
                invalid(broken, Protocols.all()));
    }

    @Test
    void otherMismatchesAreRejectedPrecisely() {
        assertEquals("WSDL: targetNamespace is 'http://tempuri.org/', but the service's namespace is 'urn:other'",
                assertThrows(IllegalArgumentException.class, () -> new MetadataPages("urn:other", ENDPOINT, Protocols.all(), SAVED))
                        .getMessage());
        assertEquals("WSDL: message 'WriteStringSoapIn' (portType 'StoreSoap' operation WriteString input) has element Other,"
                        + " expected element WriteString",
                invalid(SAVED.replace("element=\"tns:WriteString\"", "element=\"tns:Other\""), Protocols.all()));
        assertEquals("WSDL: message 'WriteBytesHttpGetIn' (portType 'StoreHttpGet' operation WriteBytes input) has parts"
                        + " [key, data], expected parts [key, content]",
                invalid(SAVED.replace("<wsdl:part name=\"content\" type=\"s1:StringArray\" />",
                        "<wsdl:part name=\"data\" type=\"s1:StringArray\" />"), Protocols.all()));
        assertEquals("WSDL: binding 'StoreSoap' operation WriteString has soapAction 'urn:x', but the service's is"
                        + " 'http://tempuri.org/WriteString'",
                invalid(SAVED.replace("soapAction=\"http://tempuri.org/WriteString\" style=\"document\" />\r\n      <wsdl:input>\r\n        <soap:body",
                        "soapAction=\"urn:x\" style=\"document\" />\r\n      <wsdl:input>\r\n        <soap:body"), Protocols.all()));
        assertEquals("WSDL: not well-formed XML (or has a DTD): DOCTYPE is disallowed when the feature"
                        + " \"http://apache.org/xml/features/disallow-doctype-decl\" set to true.",
                invalid("<!DOCTYPE x [<!ENTITY e \"e\">]>" + SAVED.substring(SAVED.indexOf("<wsdl:definitions")), Protocols.all()));
    }

    @Test
    void onlyTheEnabledProtocolsBindingsAreRequired() {
        String soapOnly = SAVED.replaceAll("(?s)\\s*<wsdl:binding name=\"StoreSoap12\".*?</wsdl:binding>", "")
                .replaceAll("(?s)\\s*<wsdl:port name=\"StoreSoap12\".*?</wsdl:port>", "");
        assertEquals("WSDL: no binding 'StoreSoap12' for protocol HttpSoap12 (switch the protocol off, or describe it)",
                invalid(soapOnly, Protocols.all()));
        MetadataPages pages = serving(soapOnly, Protocols.all().without(Protocol.HTTP_SOAP12));
        assertEquals(200, respond(pages, "wsdl", "h").status());
    }
}
