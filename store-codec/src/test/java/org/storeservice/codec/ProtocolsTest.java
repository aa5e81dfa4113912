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
}
