package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.storeservice.codec.Fixture.NS;

import java.nio.charset.StandardCharsets;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;

/** Each limit at its boundary: N passes, N + 1 fails with the client error, nothing stored. */
class LimitsTest {

    /** A SOAP 1.1 WriteString whose wrapper also holds {@code extra}, ignored by the decoder. */
    private static String withExtra(String extra) {
        return Fixture.soap11("<WriteString xmlns=\"" + NS + "\"><key>k</key><value>v</value>" + extra + "</WriteString>");
    }

    private static void assertBoundary(CodecLimits limits, int n, IntFunction<String> request, int failureStatus) {
        Fixture passing = new Fixture(limits);
        CodecResponse ok = passing.handle(Fixture.soap11Post("WriteString", request.apply(n)));
        assertEquals(200, ok.status(), Fixture.body(ok));
        assertEquals(1, passing.entryCount());
        Fixture failing = new Fixture(limits);
        CodecResponse rejected = failing.handle(Fixture.soap11Post("WriteString", request.apply(n + 1)));
        assertEquals(failureStatus, rejected.status(), Fixture.body(rejected));
        failing.assertNothingStored();
    }

    @Test
    void requestBytes() {
        String base = withExtra("");
        int size = base.getBytes(StandardCharsets.UTF_8).length;
        CodecLimits limits = CodecLimits.builder().maxRequestBytes(size + 10).build();
        assertBoundary(limits, size + 10, n -> withExtra("<p>" + "x".repeat(n - size - 7) + "</p>"), 500);
    }

    @Test
    void elementDepth() {
        // Envelope, Body and WriteString take depths 1 to 3, so n nested extra elements reach depth 3 + n
        CodecLimits limits = CodecLimits.builder().maxElementDepth(10).build();
        assertBoundary(limits, 7, n -> withExtra("<a>".repeat(n) + "</a>".repeat(n)), 400);
    }

    @Test
    void attributesPerElement() {
        CodecLimits limits = CodecLimits.builder().maxAttributesPerElement(5).build();
        assertBoundary(limits, 5, n -> withExtra("<a" + attributes(n) + "/>"), 400);
    }

    @Test
    void attributeValueLength() {
        CodecLimits limits = CodecLimits.builder().maxAttributeValueLength(100).build();
        assertBoundary(limits, 100, n -> withExtra("<a b=\"" + "x".repeat(n) + "\"/>"), 400);
    }

    @Test
    void elementCount() {
        // Envelope, Body, WriteString, key and value are 5 elements
        CodecLimits limits = CodecLimits.builder().maxElementCount(20).build();
        assertBoundary(limits, 20, n -> withExtra("<a/>".repeat(n - 5)), 400);
    }

    @Test
    void textLength() {
        CodecLimits limits = CodecLimits.builder().maxTextLength(50).build();
        // half of it in a CDATA section, so the text arrives in two parts
        assertBoundary(limits, 50, n -> Fixture.soap11(Fixture.writeString("k", "v".repeat(n / 2) + "<![CDATA["
                + "v".repeat(n - n / 2) + "]]>")), 400);
    }

    @Test
    void commentLengthInASkippedElement() {
        // Woodstox builds a comment whole, so the text limit bounds comments wherever they are
        CodecLimits limits = CodecLimits.builder().maxTextLength(50).build();
        assertBoundary(limits, 50, n -> withExtra("<a><!--" + "x".repeat(n) + "--></a>"), 400);
    }

    @Test
    void processingInstructionLengthBeforeTheEnvelope() {
        CodecLimits limits = CodecLimits.builder().maxTextLength(50).build();
        assertBoundary(limits, 50, n -> "<?p " + "x".repeat(n) + "?>" + withExtra(""), 400);
    }

    @Test
    void commentLimitAppliesAfterStreamedContent() {
        Fixture fixture = new Fixture(CodecLimits.builder().maxTextLength(10).build());
        CodecResponse response = fixture.handle(Fixture.soap12Post(Fixture.soap12(Fixture.writeBytes("k", "AQ==")) + "<!--" + "x".repeat(11) + "-->"));
        assertEquals(400, response.status(), Fixture.body(response));
        assertTrue(Fixture.body(response).contains("A comment is longer than 10 characters."), Fixture.body(response));
        fixture.assertNothingStored();
    }

    @Test
    void textLimitDoesNotApplyToStreamedContent() {
        Fixture fixture = new Fixture(CodecLimits.builder().maxTextLength(10).build());
        CodecResponse response = fixture.handle(Fixture.soap12Post(Fixture.soap12(Fixture.writeBytes("k", "A".repeat(4000)))));
        assertEquals(200, response.status());
        assertEquals(3000, fixture.bytes("k").orElseThrow().length);
    }

    @Test
    void builderRejectsNonsense() {
        assertThrows(IllegalArgumentException.class, () -> CodecLimits.builder().maxRequestBytes(-1));
        assertThrows(IllegalArgumentException.class, () -> CodecLimits.builder().maxElementDepth(3));
        assertThrows(IllegalArgumentException.class, () -> CodecLimits.builder().maxElementCount(4));
        assertThrows(IllegalArgumentException.class, () -> CodecLimits.builder().textMemoryWaitMillis(-1));
        CodecLimits custom = CodecLimits.builder().maxTextLength(7).maxParameterNames(9).textMemoryWaitMillis(11).build();
        assertEquals(7, custom.toBuilder().build().maxTextLength());
        assertEquals(9, custom.toBuilder().build().maxParameterNames());
        assertEquals(11, custom.toBuilder().build().textMemoryWaitMillis());
        assertTrue(custom.toString().contains("maxTextLength=7"));
    }

    private static String attributes(int n) {
        StringBuilder attributes = new StringBuilder();
        for (int i = 0; i < n; i++) {
            attributes.append(" a").append(i).append("=\"1\"");
        }
        return attributes.toString();
    }
}
