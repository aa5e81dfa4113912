package org.storeservice.codec.content.fast;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.storeservice.codec.Fixture;

/**
 * The spans that {@link Base64ByteRun} hands to the JDK's decoder against the same run without them (a buffer too
 * small for a span), which decodes with its own loops only: the same bytes out, the same chars and line breaks
 * counted, the same rest of the body after the run, for odd chars at and around every span boundary, every read
 * size of the store and several arrival sizes of the body.
 */
class Base64ByteRunTest {
    private static final int SPAN_CHARS = 2048;
    /** Too small for a span ({@code SPAN_CHARS} plus its tail), so only the run's own loops decode. */
    private static final int LOOPS_ONLY_BUFFER = 64;
    private static final int FAST_PATH_BUFFER = 8 * 1024;

    /** What a run produced: decoded bytes, counts, and the body after it. */
    record Result(byte[] decoded, long chars, int lineBreaks, long charsAfterLastLineBreak, byte[] rest, int spans) {
    }

    private static Result decode(byte[] body, int bufferBytes, int arrival, int readBytes) {
        InputStream source = Fixture.chunked(body, arrival);
        Base64ByteRun run = new Base64ByteRun(new byte[bufferBytes], 0, source);
        ByteArrayOutputStream decoded = new ByteArrayOutputStream();
        byte[] out = new byte[readBytes];
        int n;
        while ((n = run.decode(out, 0, out.length)) > 0) {
            decoded.write(out, 0, n);
        }
        try {
            byte[] rest = run.rest(new byte[0]).readAllBytes();
            return new Result(decoded.toByteArray(), run.chars(), run.lineBreaks(), run.charsAfterLastLineBreak(), rest,
                    run.spansDecoded());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void assertSameAsLoops(String what, byte[] body, int arrival, int readBytes) {
        Result loops = decode(body, LOOPS_ONLY_BUFFER, arrival, readBytes);
        Result spans = decode(body, FAST_PATH_BUFFER, arrival, readBytes);
        assertEquals(0, loops.spans(), what);
        assertArrayEquals(loops.decoded(), spans.decoded(), what);
        assertEquals(loops.chars(), spans.chars(), what);
        assertEquals(loops.lineBreaks(), spans.lineBreaks(), what);
        assertEquals(loops.charsAfterLastLineBreak(), spans.charsAfterLastLineBreak(), what);
        assertArrayEquals(loops.rest(), spans.rest(), what);
    }

    private static String plain(int bytes, long seed) {
        byte[] data = new byte[bytes];
        new Random(seed).nextBytes(data);
        return Base64.getEncoder().encodeToString(data);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aPlainRunIsDecodedInSpansExactly() {
        byte[] data = new byte[50_000];
        new Random(3).nextBytes(data);
        byte[] body = utf8(Base64.getEncoder().encodeToString(data) + "</content></WriteBytes>");
        Result result = decode(body, FAST_PATH_BUFFER, body.length, 64 * 1024);
        // the last unit is padded: the run leaves it, and the bytes it carries, to the parser
        int padded = data.length % 3;
        assertArrayEquals(Arrays.copyOf(data, data.length - padded), result.decoded());
        assertTrue(result.spans() >= (body.length - 2 * SPAN_CHARS) / SPAN_CHARS, "spans: " + result.spans());
        for (int readBytes : new int[] {1, 7, 1535, 1536, 1537, 4096, 64 * 1024}) {
            for (int arrival : new int[] {1, 100, 2047, 2048, 4099, body.length}) {
                assertSameAsLoops("read " + readBytes + ", arrival " + arrival, body, arrival, readBytes);
            }
        }
    }

    /** Each odd piece at and around each span boundary of the run (and elsewhere), as the run's own loops treat it. */
    @Test
    void oddCharsAtAndAroundEverySpanBoundary() {
        String run = plain(12_000, 5); // 16,000 chars: seven spans and a tail
        String[] odds = {"\n", "\r\n", " ", "\t", "QQ==", "QUI=", "=", "====", "QQ==QUJD", "*", "<", "&#x41;", "\u00e9",
            "QU\nJD", "QUJ"};
        List<Integer> positions = new ArrayList<>();
        for (int boundary = 0; boundary <= run.length(); boundary += SPAN_CHARS) {
            for (int delta = -5; delta <= 5; delta++) {
                int at = boundary + delta;
                if (at >= 0 && at <= run.length()) {
                    positions.add(at);
                }
            }
        }
        Random random = new Random(9);
        for (int i = 0; i < 20; i++) {
            positions.add(random.nextInt(run.length() + 1));
        }
        int withSpans = 0;
        for (String odd : odds) {
            for (int at : positions) {
                String content = run.substring(0, at) + odd + run.substring(at);
                byte[] body = utf8(content + "</content><key>k</key></WriteBytes></soap:Body></soap:Envelope>");
                String what = "'" + odd + "' at " + at;
                assertSameAsLoops(what, body, body.length, 64 * 1024);
                assertSameAsLoops(what + ", arrival 1000, reads 2000", body, 1000, 2000);
                if (decode(body, FAST_PATH_BUFFER, body.length, 64 * 1024).spans() > 0) {
                    withSpans++;
                }
            }
        }
        assertTrue(withSpans > odds.length * positions.size() / 2, withSpans + " cases used spans");
    }

    /** Markup after the run, short and long: a long one meets a span, which the JDK's decoder refuses. */
    @Test
    void theRunsEndBeforeShortAndLongTails() {
        String run = plain(9_000, 7);
        for (int tail = 0; tail <= 3 * SPAN_CHARS; tail += 97) {
            byte[] body = utf8(run + "</content>" + "<x/>".repeat(tail / 4));
            assertSameAsLoops("tail " + tail, body, body.length, 64 * 1024);
            assertSameAsLoops("tail " + tail + ", arrival 3000", body, 3000, 5000);
        }
    }

    /** A read of the body fails inside the run: the bytes before it are decoded, then the rest ends in the failure. */
    @Test
    void aReadThatFailsInsideTheRun() {
        String run64 = plain(9_000, 10);
        byte[] body = utf8(run64 + "</content>");
        for (int failAt = 1; failAt <= run64.length(); failAt += 331) { // a partial unit of 0 to 3 chars before it
            for (int bufferBytes : new int[] {LOOPS_ONLY_BUFFER, FAST_PATH_BUFFER}) {
                Base64ByteRun run = new Base64ByteRun(new byte[bufferBytes], 0,
                        ContentFastPathTest.failingAfter(body, failAt));
                ByteArrayOutputStream decoded = new ByteArrayOutputStream();
                byte[] out = new byte[64 * 1024];
                int n;
                while ((n = run.decode(out, 0, out.length)) > 0) {
                    decoded.write(out, 0, n);
                }
                String what = "fail at " + failAt + ", buffer " + bufferBytes;
                byte[] wholeUnits = Arrays.copyOf(body, failAt / 4 * 4);
                assertArrayEquals(Base64.getDecoder().decode(wholeUnits), decoded.toByteArray(), what);
                ByteArrayOutputStream rest = new ByteArrayOutputStream();
                InputStream after = run.rest(new byte[0]);
                IOException failure = assertThrows(IOException.class, () -> {
                    byte[] buffer = new byte[100];
                    int k;
                    while ((k = after.read(buffer)) >= 0) {
                        rest.write(buffer, 0, k);
                    }
                }, what);
                assertEquals("connection reset", failure.getMessage(), what);
                assertEquals(failAt % 4, rest.size(), what + ": the partial unit before the failure goes to the parser");
            }
        }
    }

    /** A body that ends inside the run (the request was cut short): the same counts and nothing more. */
    @Test
    void aBodyThatEndsInsideTheRun() {
        String run = plain(9_000, 8);
        for (int end = run.length() - 2 * SPAN_CHARS - 3; end <= run.length(); end += 251) {
            byte[] body = utf8(run.substring(0, end));
            assertSameAsLoops("end " + end, body, body.length, 64 * 1024);
        }
    }
}
