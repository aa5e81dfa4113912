package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.storeservice.codec.Fixture.NS;
import static org.storeservice.codec.Fixture.PATH;
import static org.storeservice.codec.Fixture.SOAP11;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Hostile requests: each rejected with the right error, after reading little, and nothing stored. */
class SecurityTest {
    private static final String XXE_PREFIX = "<?xml version=\"1.0\"?>\n<!DOCTYPE soap:Envelope [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n";

    private final Fixture fixture = new Fixture();

    private CodecResponse soap11(String xml) {
        return fixture.handle(Fixture.soap11Post("WriteString", xml));
    }

    private static void assertUnreadable(CodecResponse response, String reasonPart) {
        assertEquals(400, response.status(), Fixture.body(response));
        String body = Fixture.body(response);
        assertTrue(body.contains("<faultcode>soap:Client</faultcode><faultstring>Server was unable to read request. ---&gt; "), body);
        assertTrue(body.contains(reasonPart), body);
    }

    @Test
    void externalEntityIsNeverResolved() {
        CodecResponse response = soap11(XXE_PREFIX + Fixture.soap11(Fixture.writeString("k", "&xxe;")));
        assertUnreadable(response, "For security reasons DTD is prohibited in this XML document.");
        assertFalse(Fixture.body(response).contains("root:"));
        fixture.assertNothingStored();
    }

    @Test
    void externalDtdIsNeverFetched() {
        CodecResponse response = soap11("<!DOCTYPE x SYSTEM \"http://127.0.0.1:9/evil.dtd\">" + Fixture.soap11(Fixture.writeString("k", "v")));
        assertUnreadable(response, "DTD is prohibited");
        fixture.assertNothingStored();
    }

    @Test
    void billionLaughsIsRejected() {
        StringBuilder dtd = new StringBuilder("<!DOCTYPE lolz [<!ENTITY lol \"lol\">");
        for (int i = 1; i <= 9; i++) {
            dtd.append("<!ENTITY lol").append(i).append(" \"").append(("&lol" + (i == 1 ? "" : i - 1) + ";").repeat(10)).append("\">");
        }
        dtd.append("]>");
        CodecResponse response = soap11(dtd + Fixture.soap11(Fixture.writeString("k", "&lol9;")));
        assertUnreadable(response, "DTD is prohibited");
        fixture.assertNothingStored();
    }

    @Test
    void undeclaredEntityIsMalformed() {
        assertUnreadable(soap11(Fixture.soap11(Fixture.writeString("k", "&lol9;"))), "Undeclared general entity");
        fixture.assertNothingStored();
    }

    @Test
    void deepNestingIsRejectedAtTheDepthLimit() {
        String deep = "<a>".repeat(10_000) + "</a>".repeat(10_000);
        CodecResponse response = soap11(Fixture.soap11("<WriteString xmlns=\"" + NS + "\"><key>k</key><value>v</value>" + deep + "</WriteString>"));
        assertUnreadable(response, "Maximum Element Depth limit (64) Exceeded");
        fixture.assertNothingStored();
    }

    @Test
    void oversizedTextIsRejected() {
        Fixture limited = new Fixture(CodecLimits.builder().maxTextLength(1000).build());
        CodecResponse response = limited.handle(Fixture.soap11Post("WriteString", Fixture.soap11(Fixture.writeString("k", "x".repeat(1001)))));
        assertEquals(400, response.status());
        assertTrue(Fixture.body(response).contains("The text of element &#39;value&#39; is longer than 1000 characters.".replace("&#39;", "'")));
        limited.assertNothingStored();
    }

    @Test
    void hugeBodyWithoutContentLengthIsCutOffAtTheLimit() {
        CountingBody body = new CountingBody(64L << 20);
        CodecResponse response = fixture.codec.handle(CodecRequest.builder("POST", PATH).header("Content-Type", "text/xml")
                .header("SOAPAction", NS + "WriteBytes").body(body).build());
        assertEquals(500, response.status());
        assertTrue(Fixture.body(response).contains("Maximum request length exceeded."));
        // read no more than the limit plus one parser buffer
        assertTrue(body.served <= CodecLimits.DEFAULT_MAX_REQUEST_BYTES + 65_536, "read " + body.served);
        fixture.assertNothingStored();
    }

    /** The limit crossed inside a value's text, whatever the read sizes, is the size fault, and nothing is stored. */
    @ParameterizedTest
    @ValueSource(ints = {1000, 4096, 8000, 8192, 16_384, 65_536})
    void limitCrossedInsideTextIsTheSizeFaultAtEveryChunkSize(int chunk) {
        Fixture limited = new Fixture(CodecLimits.builder().maxRequestBytes(50_000).build());
        byte[] body = Fixture.soap11(Fixture.writeString("big", "x".repeat(75_000))).getBytes(StandardCharsets.UTF_8);
        CodecResponse response = limited.codec.handle(CodecRequest.builder("POST", PATH).header("Content-Type", "text/xml")
                .header("SOAPAction", NS + "WriteString").body(Fixture.chunked(body, chunk)).build());
        assertEquals(500, response.status());
        assertTrue(Fixture.body(response).contains("Maximum request length exceeded."), Fixture.body(response));
        limited.assertNothingStored();
    }

    @Test
    void hugeDeclaredContentLengthIsRejectedWithoutReading() {
        CountingBody body = new CountingBody(64L << 20);
        CodecResponse soap = fixture.codec.handle(CodecRequest.builder("POST", PATH).header("Content-Type", "text/xml")
                .header("SOAPAction", NS + "WriteBytes").header("Content-Length", String.valueOf(64L << 20)).body(body).build());
        assertEquals(500, soap.status());
        CodecResponse form = fixture.codec.handle(CodecRequest.builder("POST", PATH + "/WriteBytes")
                .header("Content-Type", "application/x-www-form-urlencoded").header("Content-Length", String.valueOf(64L << 20))
                .body(body).build());
        assertEquals("Maximum request length exceeded.\r\n", Fixture.body(form));
        assertEquals(0, body.served);
        fixture.assertNothingStored();
    }

    @Test
    void hugeFormIsCutOffAtTheLimit() {
        CountingBody body = new CountingBody(64L << 20);
        CodecResponse form = fixture.codec.handle(CodecRequest.builder("POST", PATH + "/WriteBytes")
                .header("Content-Type", "application/x-www-form-urlencoded").body(body).build());
        assertEquals(500, form.status());
        assertEquals("Maximum request length exceeded.\r\n", Fixture.body(form));
        assertTrue(body.served <= CodecLimits.DEFAULT_MAX_REQUEST_BYTES + 65_536, "read " + body.served);
        fixture.assertNothingStored();
    }

    @Test
    void errorRepliesNeverCarryAStackTrace() {
        CodecResponse response = soap11("<soap:Envelope xmlns:soap=\"" + SOAP11 + "\"><soap:Body><x></y>");
        assertFalse(Fixture.body(response).contains("\tat "));
        assertFalse(Fixture.body(response).contains("Exception"));
    }

    /**
     * A SOAP WriteBytes request of {@code size} bytes, generated as it is read: an envelope start, then
     * base64 text forever; counts the bytes served.
     */
    static final class CountingBody extends InputStream {
        private final byte[] prefix = ("<soap:Envelope xmlns:soap=\"" + SOAP11 + "\"><soap:Body><WriteBytes xmlns=\"" + NS
                + "\"><key>k</key><content>").getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        private final long size;
        long served;

        CountingBody(long size) {
            this.size = size;
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0];
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (served >= size) {
                return -1;
            }
            int n = (int) Math.min(len, size - served);
            for (int i = 0; i < n; i++) {
                long position = served + i;
                b[off + i] = position < prefix.length ? prefix[(int) position] : (byte) 'A';
            }
            served += n;
            return n;
        }
    }
}
