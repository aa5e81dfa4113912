package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.storeservice.codec.Fixture.PATH;
import static org.storeservice.codec.Fixture.assertResponse;
import static org.storeservice.codec.Fixture.headers;

import org.junit.jupiter.api.Test;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.storage.MemoryStorage;

/**
 * Protocol switches: each case is derived from ASMX's factory loop (wire notes §0) with the disabled factories
 * left out; when no factory takes a request, the last one's answer decides the error.
 */
class ProtocolsTest {
    private static final String HTML = "text/html; charset=utf-8";

    private static StoreCodec codec(Protocols protocols) {
        return StoreCodec.builder(DefaultStore.builder(new MemoryStorage()).build()).protocols(protocols).build();
    }

    private static String page(String message) {
        return "<!DOCTYPE html>\r\n<html>\r\n    <head>\r\n        <title>" + message + "</title>\r\n"
                + "    </head>\r\n    <body bgcolor=\"white\">\r\n"
                + "        <h1>Server Error in '/' Application.<hr width=100% size=1 color=silver></h1>\r\n"
                + "        <h2> <i>" + message + "</i> </h2>\r\n    </body>\r\n</html>\r\n";
    }

    private static final String UNRECOGNIZED = page("Request format is unrecognized.");

    private static String unrecognized(String pathInfo) {
        return page("Request format is unrecognized for URL unexpectedly ending in &#39;" + pathInfo + "&#39;.");
    }

    private static CodecRequest.Builder form(String operation) {
        return Fixture.post(PATH + "/" + operation, "key=k&value=v").header("Content-Type", "application/x-www-form-urlencoded");
    }

    @Test
    void parsesAsmxNamesCaseInsensitivelyAndPrintsThemBack() {
        Protocols protocols = Protocols.parse(" httpsoap , HttpGet,DOCUMENTATION,");
        assertEquals("HttpSoap,HttpGet,Documentation", protocols.toString());
        assertEquals(protocols, Protocols.parse(protocols.toString()));
        assertEquals(Protocols.all(), Protocols.parse("HttpSoap,HttpSoap12,HttpGet,HttpPost,HttpPostLocalhost,Documentation"));
        assertEquals("", Protocols.parse("").toString());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Protocols.parse("HttpSoap,Soap13"));
        assertTrue(e.getMessage().contains("'Soap13'") && e.getMessage().contains("HttpSoap12"), e.getMessage());
    }

    @Test
    void theDefaultIsEveryProtocol() {
        assertEquals(Protocols.all(), codec(Protocols.all()).protocols());
        assertEquals(Protocols.all(), StoreCodec.builder(DefaultStore.builder(new MemoryStorage()).build()).build().protocols());
    }

    @Test
    void httpGetOffLeavesAGetWithPathInfoToTheDocumentationFactory() {
        // SOAP: no (path info); HttpPost, HttpPostLocalhost: wrong verb; Discovery, Documentation: no → unrecognized URL
        StoreCodec codec = codec(Protocols.all().without(Protocol.HTTP_GET));
        assertResponse(500, headers("private", HTML), unrecognized("/WriteString"),
                codec.handle(Fixture.get(PATH + "/WriteString", "key=k&value=v").build()));
    }

    @Test
    void httpGetAndDocumentationOffMakeAGetWithPathInfoA405FromHttpPost() {
        // the last factory is now HttpGet's neighbour HttpPostLocalhost, which objects to the verb
        StoreCodec codec = codec(Protocols.of(Protocol.HTTP_SOAP, Protocol.HTTP_SOAP12, Protocol.HTTP_POST, Protocol.HTTP_POST_LOCALHOST));
        assertResponse(405, headers("private", HTML), UNRECOGNIZED,
                codec.handle(Fixture.get(PATH + "/WriteString", "key=k&value=v").build()));
    }

    @Test
    void httpPostOffIsUnrecognizedForARemoteClient() {
        StoreCodec codec = codec(Protocols.all().without(Protocol.HTTP_POST).without(Protocol.HTTP_POST_LOCALHOST));
        assertResponse(500, headers("private", HTML), unrecognized("/WriteString"),
                codec.handle(form("WriteString").clientAddresses("127.0.0.1", "127.0.0.1").build()));
    }

    @Test
    void httpPostLocalhostTakesFormPostsFromThisMachineOnly() {
        StoreCodec codec = codec(Protocols.all().without(Protocol.HTTP_POST));
        assertEquals(200, codec.handle(form("WriteString").clientAddresses("127.0.0.1", "127.0.0.1").build()).status());
        assertEquals(200, codec.handle(form("WriteString").clientAddresses("::1", "::1").build()).status());
        assertEquals(200, codec.handle(form("WriteString").clientAddresses("192.0.2.7", "192.0.2.7").build()).status(),
                "the server's own address is local too (Request.IsLocal)");
        // a remote client falls through: HttpGet objects to the verb, Discovery and Documentation have no opinion
        assertResponse(500, headers("private", HTML), unrecognized("/WriteString"),
                codec.handle(form("WriteString").clientAddresses("192.0.2.7", "192.0.2.1").build()));
        assertResponse(500, headers("private", HTML), unrecognized("/WriteString"),
                codec.handle(form("WriteString").build())); // no address given: not local
    }

    @Test
    void soapOffMakesAPostToTheBarePathA405FromDocumentation() {
        StoreCodec codec = codec(Protocols.all().without(Protocol.HTTP_SOAP).without(Protocol.HTTP_SOAP12));
        assertResponse(405, headers("private", HTML), UNRECOGNIZED,
                codec.handle(Fixture.soap11Post("WriteString", Fixture.soap11(Fixture.writeString("k", "v"))).build()));
    }

    @Test
    void soapAndDocumentationOffMakeAPostToTheBarePathUnrecognized() {
        StoreCodec codec = codec(Protocols.of(Protocol.HTTP_GET, Protocol.HTTP_POST, Protocol.HTTP_POST_LOCALHOST));
        assertResponse(500, headers("private", HTML), UNRECOGNIZED,
                codec.handle(Fixture.soap11Post("WriteString", Fixture.soap11(Fixture.writeString("k", "v"))).build()));
    }

    @Test
    void documentationOffServesNoHelpPageWsdlOrDisco() {
        StoreCodec codec = codec(Protocols.all().without(Protocol.DOCUMENTATION));
        for (String query : new String[] {"", "wsdl", "disco", "op=WriteString"}) {
            // SOAP objects to GET; HttpPost, HttpPostLocalhost, HttpGet need path info → the last says nothing
            assertResponse(500, headers("private", HTML), UNRECOGNIZED, codec.handle(Fixture.get(PATH, query).build()));
        }
        assertResponse(500, headers("private", HTML), UNRECOGNIZED,
                codec.handle(CodecRequest.builder("PUT", PATH).build())); // not the 405 Documentation's factory would give
    }

    @Test
    void nothingOnLeavesEveryRequestUnrecognized() {
        StoreCodec codec = codec(Protocols.of());
        assertResponse(500, headers("private", HTML), UNRECOGNIZED, codec.handle(Fixture.get(PATH, "wsdl").build()));
        assertResponse(500, headers("private", HTML), unrecognized("/WriteString"), codec.handle(form("WriteString").build()));
    }

    @Test
    void theEnabledBindingsStillWorkBesideDisabledOnes() {
        StoreCodec codec = codec(Protocols.of(Protocol.HTTP_GET));
        assertEquals(200, codec.handle(Fixture.get(PATH + "/WriteString", "key=k&value=v").build()).status());
    }

    // A SOAP version whose protocol is off: SoapServerProtocol.CheckHelperVersion answers a known but unsupported
    // envelope with a SOAP 1.1 VersionMismatch expecting the enabled version's envelope (1.1 when HttpSoap is on), an
    // unknown envelope in the version it expects; CreateUpgradeHeader lists only the enabled versions.

    private static final String SOAP11_NS = "http://schemas.xmlsoap.org/soap/envelope/";
    private static final String SOAP12_NS = "http://www.w3.org/2003/05/soap-envelope";
    private static final String XSI_XSD = " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
            + " xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"";
    private static final String UPGRADE_11_ONLY = "<soap:Header><soap12:Upgrade xmlns:soap12=\"" + SOAP12_NS + "\">"
            + "<soap12:SupportedEnvelope qname=\"soap:Envelope\" xmlns:soap=\"" + SOAP11_NS + "\" /></soap12:Upgrade></soap:Header>";
    private static final String UPGRADE_12_ONLY = "<soap:Header><soap12:Upgrade xmlns:soap12=\"" + SOAP12_NS + "\">"
            + "<soap12:SupportedEnvelope qname=\"soap12:Envelope\" xmlns:soap12=\"" + SOAP12_NS + "\" /></soap12:Upgrade></soap:Header>";

    private static String mismatch11(String upgrade, String requestNamespace, String expected) {
        return "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"" + SOAP11_NS + "\"" + XSI_XSD + ">"
                + upgrade + "<soap:Body><soap:Fault><faultcode>soap:VersionMismatch</faultcode><faultstring>Possible SOAP version"
                + " mismatch: Envelope namespace " + requestNamespace + " was unexpected. Expecting " + expected
                + ".</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>";
    }

    @Test
    void soap12OffAnswersASoap12EnvelopeWithASoap11VersionMismatchAndStoresNothing() throws Exception {
        MemoryStorage storage = new MemoryStorage();
        StoreCodec codec = StoreCodec.builder(DefaultStore.builder(storage).build())
                .protocols(Protocols.all().without(Protocol.HTTP_SOAP12)).build();
        assertResponse(500, headers("private", "text/xml; charset=utf-8"), mismatch11(UPGRADE_11_ONLY, SOAP12_NS, SOAP11_NS),
                codec.handle(Fixture.soap12Post(Fixture.soap12(Fixture.writeString("k", "v"))).build()));
        assertTrue(storage.get("k").isEmpty());
    }

    @Test
    void soapOffAnswersASoap11EnvelopeWithASoap11VersionMismatchExpectingSoap12() throws Exception {
        MemoryStorage storage = new MemoryStorage();
        StoreCodec codec = StoreCodec.builder(DefaultStore.builder(storage).build())
                .protocols(Protocols.all().without(Protocol.HTTP_SOAP)).build();
        assertResponse(500, headers("private", "text/xml; charset=utf-8"), mismatch11(UPGRADE_12_ONLY, SOAP11_NS, SOAP12_NS),
                codec.handle(Fixture.soap11Post("WriteString", Fixture.soap11(Fixture.writeString("k", "v"))).build()));
        assertTrue(storage.get("k").isEmpty());
        // the enabled version is still served
        assertEquals(200, codec.handle(Fixture.soap12Post(Fixture.soap12(Fixture.writeString("k", "v"))).build()).status());
        assertEquals("v", storage.get("k").orElseThrow().text());
    }

    @Test
    void soapOffAnswersAnUnknownEnvelopeInSoap12() {
        StoreCodec codec = codec(Protocols.all().without(Protocol.HTTP_SOAP));
        String expected = "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"" + SOAP12_NS + "\"" + XSI_XSD + ">"
                + UPGRADE_12_ONLY + "<soap:Body><soap:Fault><soap:Code><soap:Value>soap:VersionMismatch</soap:Value></soap:Code>"
                + "<soap:Reason><soap:Text xml:lang=\"en\">Possible SOAP version mismatch: Envelope namespace urn:other was"
                + " unexpected. Expecting " + SOAP12_NS + ".</soap:Text></soap:Reason><soap:Detail /></soap:Fault></soap:Body></soap:Envelope>";
        assertResponse(500, headers("private", "application/soap+xml; charset=utf-8"), expected,
                codec.handle(Fixture.soap12Post("<e:Envelope xmlns:e=\"urn:other\"><e:Body/></e:Envelope>").build()));
    }
}
