package org.storeservice.codec.metadata;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.storeservice.codec.metadata.MetadataTestSupport.attributes;
import static org.storeservice.codec.metadata.MetadataTestSupport.parse;
import static org.storeservice.codec.metadata.MetadataTestSupport.resource;
import static org.storeservice.codec.metadata.MetadataTestSupport.respond;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.storeservice.codec.CodecRequest;
import org.storeservice.codec.CodecResponse;
import org.storeservice.codec.StoreCodec;
import org.w3c.dom.Document;

class MetadataPagesTest {
    private static final String SOAP_ADDRESS = "http://schemas.xmlsoap.org/wsdl/soap/";
    private static final List<Map.Entry<String, String>> XML_HEADERS = List.of(
            Map.entry("Cache-Control", "private, max-age=0"), Map.entry("Content-Type", "text/xml; charset=utf-8"));
    private static final List<Map.Entry<String, String>> HTML_HEADERS = List.of(
            Map.entry("Cache-Control", "private, max-age=0"), Map.entry("Content-Type", "text/html; charset=utf-8"));

    private final MetadataPages pages = new MetadataPages(StoreCodec.DEFAULT_NAMESPACE, "/API/Store.asmx");

    @ParameterizedTest
    @ValueSource(strings = {"WSDL", "wsdl", "Wsdl", "wSdL"})
    void bareWsdlInAnyCaseGivesTheWsdl(String query) {
        CodecResponse response = respond(pages, query, "localhost:8080");

        assertEquals(200, response.status());
        assertEquals(XML_HEADERS, response.headers());
        assertArrayEquals(resource("store-tempuri-localhost-8080.wsdl"), response.bodyBytes());
    }

    @ParameterizedTest
    @ValueSource(strings = {"disco", "DISCO", "Disco"})
    void bareDiscoGivesTheGoldenDiscoveryDocument(String query) {
        CodecResponse response = respond(pages, query, "localhost:8080");

        assertEquals(200, response.status());
        assertEquals(XML_HEADERS, response.headers());
        assertArrayEquals(resource("store-tempuri-localhost-8080.disco"), response.bodyBytes());
    }

    @Test
    void discoListsOnlyTheSoapPortsAtTheRequestsAddress() {
        Document disco = parse(respond(new MetadataPages("urn:example:store", "/API/Store.asmx"), "disco",
                "Store.Example.com").bodyBytes(), false);
        String soapNs = "http://schemas.xmlsoap.org/disco/soap/";

        assertEquals(List.of("http://store.example.com/API/Store.asmx?wsdl"),
                attributes(disco, "http://schemas.xmlsoap.org/disco/scl/", "contractRef", "ref"));
        assertEquals(List.of("http://store.example.com/API/Store.asmx", "http://store.example.com/API/Store.asmx"),
                attributes(disco, soapNs, "soap", "address"));
        assertEquals(List.of("q1:StoreSoap", "q2:StoreSoap12"), attributes(disco, soapNs, "soap", "binding"));
        assertEquals("urn:example:store",
                MetadataTestSupport.elements(disco, soapNs, "soap").get(1).lookupNamespaceURI("q2"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "wsdl=x|XML Web service description was not found.",
            "WSDL=|XML Web service description was not found.",
            "wsdl=wsdl1&op=WriteString|XML Web service description was not found.",
            "schema=x|Schema not found.",
            "Schema=schema1|Schema not found.",
            "wsdl=x&schema=y|Schema not found.",
            "wsdl&schema=1|Schema not found."})
    void unknownDescriptionOrSchemaIdIsTheAsmxTextPlainError(String query, String message) {
        CodecResponse response = respond(pages, query, "localhost");

        assertEquals(500, response.status());
        // raised in DiscoveryServerProtocol.WriteReturns, after PrepareContext set max-age 0 (wire notes §11)
        assertEquals(List.of(Map.entry("Cache-Control", "private, max-age=0"),
                Map.entry("Content-Type", "text/plain; charset=utf-8")), response.headers());
        assertEquals(message + "\r\n", new String(response.bodyBytes(), StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "wsdl&foo", "wsdl&", "foo", "disco&wsdl", "wsdlx", "WSDL%20"})
    void anythingElseIsTheServicePage(String query) {
        CodecResponse response = respond(pages, query, "localhost");

        assertEquals(200, response.status());
        assertEquals(HTML_HEADERS, response.headers());
        assertEquals(new HelpPages(StoreCodec.DEFAULT_NAMESPACE, "/API/Store.asmx", org.storeservice.codec.Protocols.all()).serviceList(),
                new String(response.bodyBytes(), StandardCharsets.UTF_8));
    }

    @Test
    void percentEncodedBareWsdlIsDecodedFirst() {
        assertArrayEquals(resource("store-tempuri-localhost-8080.wsdl"),
                respond(pages, "%57sdl", "localhost:8080").bodyBytes());
    }

    @ParameterizedTest
    @CsvSource({
            "http, localhost:8080, http://localhost:8080/API/Store.asmx",
            "http, Store.EXAMPLE.com, http://store.example.com/API/Store.asmx",
            "http, example.com:80, http://example.com/API/Store.asmx",
            "https, example.com:443, https://example.com/API/Store.asmx",
            "https, example.com:80, https://example.com:80/API/Store.asmx",
            "http, [::1]:8080, http://[::1]:8080/API/Store.asmx",
            "http, ' 10.0.0.7:81 ', http://10.0.0.7:81/API/Store.asmx",
            "http, example.com:, http://example.com/API/Store.asmx"})
    void addressesEchoTheRequestsSchemeAndHostAsSystemUriNormalizesThem(String scheme, String host, String address) {
        CodecRequest request = CodecRequest.builder("GET", "/API/Store.asmx").rawQuery("wsdl").scheme(scheme)
                .header("Host", host).build();
        Document wsdl = parse(pages.respond(request).bodyBytes(), false);

        assertEquals(List.of(address), attributes(wsdl, SOAP_ADDRESS, "address", "location"));
    }

    @Test
    void missingOrBlankHostFallsBackToLocalhost() {
        for (String host : new String[] {null, "", "   "}) {
            Document wsdl = parse(respond(pages, "wsdl", host).bodyBytes(), false);
            assertEquals(List.of("http://localhost/API/Store.asmx"), attributes(wsdl, SOAP_ADDRESS, "address", "location"));
        }
    }

    @Test
    void hostileHostIsPercentEncodedIntoAValidAddressAndNeverReachesMarkupRaw() {
        String hostile = "evil\"><script>alert(1)</script>";
        for (String query : new String[] {"wsdl", "disco", "op=WriteString", "op=WriteBytes"}) {
            String body = new String(respond(pages, query, hostile).bodyBytes(), StandardCharsets.UTF_8);
            assertFalse(body.contains("<script"), query + " echoes the raw Host");
            assertFalse(body.contains("evil\""), query + " echoes the raw Host");
            assertTrue(body.contains("evil%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E"), query);
        }
        Document wsdl = parse(respond(pages, "wsdl", hostile).bodyBytes(), false);
        assertEquals(List.of("http://evil%22%3E%3Cscript%3Ealert(1)%3C%2Fscript%3E/API/Store.asmx"),
                attributes(wsdl, SOAP_ADDRESS, "address", "location"));
    }

    @Test
    void configuredEndpointPathIsUsedAndPercentEncoded() {
        MetadataPages other = new MetadataPages("urn:x", "/svc/Key Store.asmx");
        Document wsdl = parse(respond(other, "wsdl", "h").bodyBytes(), false);

        assertEquals(List.of("http://h/svc/Key%20Store.asmx"), attributes(wsdl, SOAP_ADDRESS, "address", "location"));
        String help = new String(respond(other, "", "h").bodyBytes(), StandardCharsets.UTF_8);
        assertTrue(help.contains("href=\"Key+Store.asmx?WSDL\""), "relative link, UrlEncoded as ASP.NET does");
        assertTrue(help.contains("href=\"/svc/Key%20Store.asmx?disco\""));
    }

    @Test
    void namespaceWithCharactersXmlCannotCarryIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> new MetadataPages("urn:\u0001", "/API/Store.asmx"));
    }

    @Test
    void cacheStaysBoundedForAThousandDistinctHostsAndEveryAnswerIsStillRight() {
        List<String> queries = List.of("wsdl", "disco", "op=WriteString", "op=WriteBytes", "op=Nope", "");
        IntStream.range(0, 1000).parallel().forEach(i -> {
            String host = "host" + i + ".example:" + (1000 + i);
            for (String query : queries) {
                String body = new String(respond(pages, query, host).bodyBytes(), StandardCharsets.UTF_8);
                if (query.equals("op=WriteBytes")) {
                    assertTrue(body.contains("Host: " + host + "\r\n"), query + " for " + host);
                } else if (!query.isEmpty() && !query.equals("op=Nope")) {
                    assertTrue(body.contains("http://" + host + "/API/Store.asmx"), query + " for " + host);
                }
                assertTrue(pages.cachedBodies() <= pages.maxCachedBodies());
            }
        });

        assertEquals(pages.maxCachedBodies(), pages.cachedBodies());
        assertEquals(40, pages.maxCachedBodies());
    }

    @Test
    void cachedAndFreshlyRenderedBodiesAreIdentical() {
        byte[] first = respond(pages, "op=WriteString", "a.example").bodyBytes();
        byte[] cached = respond(pages, "op=WriteString", "a.example").bodyBytes();
        MetadataPages fresh = new MetadataPages(StoreCodec.DEFAULT_NAMESPACE, "/API/Store.asmx");

        assertArrayEquals(first, cached);
        assertArrayEquals(first, respond(fresh, "op=WriteString", "A.EXAMPLE:80").bodyBytes());
        assertEquals(1, pages.cachedBodies());
    }
}
