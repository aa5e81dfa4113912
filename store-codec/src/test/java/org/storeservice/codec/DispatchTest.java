package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.storeservice.codec.Fixture.PATH;
import static org.storeservice.codec.Fixture.assertResponse;
import static org.storeservice.codec.Fixture.headers;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The request → protocol table of wire notes §0 (what the metadata pages say is tested in MetadataPagesTest). */
class DispatchTest {
    private final Fixture fixture = new Fixture();

    private static String page(String message) {
        return "<!DOCTYPE html>\r\n<html>\r\n    <head>\r\n        <title>" + message + "</title>\r\n"
                + "    </head>\r\n    <body bgcolor=\"white\">\r\n"
                + "        <h1>Server Error in '/' Application.<hr width=100% size=1 color=silver></h1>\r\n"
                + "        <h2> <i>" + message + "</i> </h2>\r\n    </body>\r\n</html>\r\n";
    }

    @ParameterizedTest
    @ValueSource(strings = {"HEAD", "PUT", "DELETE", "OPTIONS", "PATCH"})
    void otherVerbsOnTheBarePathAre405(String method) {
        CodecResponse response = fixture.handle(CodecRequest.builder(method, PATH));
        assertResponse(405, headers("private", "text/html; charset=utf-8"), page("Request format is unrecognized."), response);
    }

    @ParameterizedTest
    @ValueSource(strings = {"HEAD", "PUT", "DELETE", "OPTIONS"})
    void otherVerbsWithPathInfoAre500(String method) {
        CodecResponse response = fixture.handle(CodecRequest.builder(method, PATH + "/WriteString"));
        assertResponse(500, headers("private", "text/html; charset=utf-8"),
                page("Request format is unrecognized for URL unexpectedly ending in &#39;/WriteString&#39;."), response);
    }

    @ParameterizedTest
    @ValueSource(strings = {"GET", "POST", "PUT"})
    void aTrailingSlashIsUnrecognized(String method) {
        CodecResponse response = fixture.handle(CodecRequest.builder(method, PATH + "/"));
        assertResponse(500, headers("private", "text/html; charset=utf-8"),
                page("Request format is unrecognized for URL unexpectedly ending in &#39;/&#39;."), response);
    }

    @Test
    void postToTheBarePathIsSoapWhateverTheQuery() {
        CodecResponse response = fixture.handle(Fixture.soap11Post("WriteString", Fixture.soap11(Fixture.writeString("k", "v"))).rawQuery("wsdl"));
        assertEquals(200, response.status());
        assertEquals("v", fixture.text("k").orElseThrow());
    }

    @Test
    void getAndPostWithPathInfoAreTheHttpBindings() {
        assertEquals(200, fixture.handle(Fixture.get(PATH + "/WriteString", "key=a&value=1")).status());
        assertEquals(200, fixture.handle(Fixture.post(PATH + "/WriteString", "key=b&value=2")
                .header("Content-Type", "application/x-www-form-urlencoded")).status());
        assertEquals("1", fixture.text("a").orElseThrow());
        assertEquals("2", fixture.text("b").orElseThrow());
    }

    @Test
    void pathsAreMatchedCaseInsensitively() {
        assertTrue(fixture.codec.matches("/api/store.ASMX/WriteString"));
        assertFalse(fixture.codec.matches("/API/Store.asmxx"));
        assertEquals(200, fixture.handle(Fixture.get("/api/store.asmx/WriteString", "key=a&value=1")).status());
    }

    @Test
    void pathsOutsideTheEndpointAre404() {
        assertEquals(404, fixture.handle(Fixture.get("/other", "")).status());
    }

    @Test
    void getOnTheBarePathIsTheMetadata() {
        CodecResponse wsdl = fixture.handle(Fixture.get(PATH, "WSDL").header("Host", "example.org"));
        assertEquals(200, wsdl.status());
        assertEquals("text/xml; charset=utf-8", wsdl.header("Content-Type"));
        assertTrue(Fixture.body(wsdl).contains("<soap:address location=\"http://example.org/API/Store.asmx\" />"));

        CodecResponse help = fixture.handle(Fixture.get(PATH, ""));
        assertEquals(200, help.status());
        assertEquals("text/html; charset=utf-8", help.header("Content-Type"));

        CodecResponse unknownWsdl = fixture.handle(Fixture.get(PATH, "wsdl=x"));
        assertResponse(500, headers("private, max-age=0", "text/plain; charset=utf-8"),
                "XML Web service description was not found.\r\n", unknownWsdl);
    }
}
