package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.storeservice.codec.Fixture.PATH;
import static org.storeservice.codec.Fixture.assertResponse;
import static org.storeservice.codec.Fixture.headers;

import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * {@link CodecLimits#maxQueryStringLength()}: none of ASP.NET's kind by default, so an HTTP GET WriteBytes longer
 * than ASP.NET's default 2,048 chars works; when set, a longer query gets ASP.NET's answer.
 */
class QueryStringLimitTest {
    private static final String MESSAGE =
            "The length of the query string for this request exceeds the configured maxQueryStringLength value.";

    @Test
    void aGetWriteBytesOfAFewThousandCharsIsStoredByDefault() {
        Fixture fixture = new Fixture();
        byte[] content = content(256);
        String query = writeBytesQuery("k", content);
        assertEquals(true, query.length() > 2048, "longer than ASP.NET's default");

        CodecResponse response = fixture.handle(Fixture.get(PATH + "/WriteBytes", query));

        assertResponse(200, headers("private, max-age=0", "text/xml; charset=utf-8"),
                "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<Status xmlns=\"http://tempuri.org/\">Success</Status>", response);
        assertArrayEquals(content, fixture.bytes("k").orElseThrow());
    }

    @Test
    void whenSetALongerQueryGetsAspNetsErrorPageAndNothingIsStored() {
        Fixture fixture = new Fixture(CodecLimits.builder().maxQueryStringLength(2048).build());
        String tooLong = writeBytesQuery("k", content(256));

        CodecResponse get = fixture.handle(Fixture.get(PATH + "/WriteBytes", tooLong));
        CodecResponse metadata = fixture.handle(Fixture.get(PATH, "wsdl&" + "x".repeat(2048)));
        CodecResponse soap = fixture.handle(Fixture.soap11Post("WriteString", Fixture.soap11(Fixture.writeString("k", "v")))
                .rawQuery("x".repeat(2049)));

        String page = "<!DOCTYPE html>\r\n<html>\r\n    <head>\r\n        <title>" + MESSAGE + "</title>\r\n"
                + "    </head>\r\n    <body bgcolor=\"white\">\r\n"
                + "        <h1>Server Error in '/' Application.<hr width=100% size=1 color=silver></h1>\r\n"
                + "        <h2> <i>" + MESSAGE + "</i> </h2>\r\n    </body>\r\n</html>\r\n";
        for (CodecResponse response : new CodecResponse[] {get, metadata, soap}) {
            assertResponse(400, headers("private", "text/html; charset=utf-8"), page, response);
        }
        assertEquals(Optional.empty(), fixture.text("k"));
        fixture.assertNothingStored();
    }

    @Test
    void whenSetAQueryOfExactlyTheLimitIsAnswered() {
        Fixture fixture = new Fixture(CodecLimits.builder().maxQueryStringLength(2048).build());
        String query = "key=k&value=" + "v".repeat(2048 - "key=k&value=".length());

        CodecResponse response = fixture.handle(Fixture.get(PATH + "/WriteString", query));

        assertEquals(200, response.status());
        assertEquals(Optional.of("v".repeat(2036)), fixture.text("k"));
    }

    private static byte[] content(int length) {
        byte[] content = new byte[length];
        for (int i = 0; i < length; i++) {
            content[i] = (byte) i;
        }
        return content;
    }

    /** A WriteBytes query as ASMX's HTTP GET binding takes it: one decimal {@code content} field per byte. */
    private static String writeBytesQuery(String key, byte[] content) {
        StringBuilder query = new StringBuilder("key=").append(key);
        for (byte b : content) {
            query.append("&content=").append(b & 0xFF);
        }
        return query.toString();
    }
}
