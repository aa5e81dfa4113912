package org.storeservice.codec.content.fast;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.storeservice.codec.Fixture.NS;
import static org.storeservice.codec.content.fast.ContentFastPathTest.UTF8_XML;
import static org.storeservice.codec.content.fast.ContentFastPathTest.assertSameRequest;
import static org.storeservice.codec.content.fast.ContentFastPathTest.concat;
import static org.storeservice.codec.content.fast.ContentFastPathTest.envelope;
import static org.storeservice.codec.content.fast.ContentFastPathTest.failingAfter;
import static org.storeservice.codec.content.fast.ContentFastPathTest.keyFirst;
import static org.storeservice.codec.content.fast.ContentFastPathTest.mime;
import static org.storeservice.codec.content.fast.ContentFastPathTest.plain;
import static org.storeservice.codec.content.fast.ContentFastPathTest.request;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.storeservice.api.StoreLimits;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.CodecRequest;
import org.storeservice.codec.Fixture;

/**
 * Hostile and unusual requests through the content fast path, each against the parser's path as the oracle
 * (see {@link ContentFastPathTest}): same status, headers, body and stored state.
 */
class ContentFastPathAdversarialTest {
    private final List<String> failures = new ArrayList<>();

    /** Compares one request, collecting a failure rather than stopping, so one test reports every case. */
    private void check(String what, CodecLimits limits, String contentType, byte[] body, Boolean fastTaken) {
        check(what, limits, StoreLimits.defaults(), () -> request(contentType, new ByteArrayInputStream(body)), fastTaken);
    }

    private void check(String what, CodecLimits limits, StoreLimits storeLimits, Supplier<CodecRequest> request,
            Boolean fastTaken) {
        try {
            assertSameRequest(what, limits, storeLimits, request, fastTaken);
        } catch (AssertionError e) {
            failures.add(what + ": " + e.getMessage().replaceAll("<\\?xml.*?<faultstring>", "")
                    .replaceAll("</faultstring>.*?Envelope>", ""));
        }
    }

    private void check(String what, String xml, Boolean fastTaken) {
        check(what, utf8(xml), fastTaken);
    }

    private void checkChunked(String what, byte[] body, int chunk, Boolean fastTaken) {
        check(what + ", chunks of " + chunk, CodecLimits.defaults(), StoreLimits.defaults(),
                () -> request(UTF8_XML, Fixture.chunked(body, chunk)), fastTaken);
    }

    private void check(String what, byte[] body, Boolean fastTaken) {
        check(what, CodecLimits.defaults(), UTF8_XML, body, fastTaken);
    }

    private void assertNoFailures() {
        assertEquals(List.of(), failures, String.join("\n", failures));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] bytes(int... values) {
        byte[] b = new byte[values.length];
        for (int i = 0; i < values.length; i++) {
            b[i] = (byte) values[i];
        }
        return b;
    }

    /**
     * Malformed UTF-8 after the run: the decoder's message names the char (and byte) where it is, counted in the
     * stream the parser decoded, which on the fast path lacks the run.
     */
    @Test
    void malformedUtf8AfterTheRunIsNamedWhereItIsAsSent() {
        String run = mime(3000, 21);
        byte[][] malformed = {bytes(0xFF), bytes(0x80), bytes(0xC3), bytes(0xC3, 'A'), bytes(0xE3, 0x80),
            bytes(0xC0, 0x80), bytes(0xED, 0xA0, 0x80), bytes(0xF4, 0x90, 0x80, 0x80)};
        String start = envelope("<key>k</key><content>@");
        byte[] head = utf8(start.substring(0, start.indexOf('@')) + run);
        byte[] tail = utf8(start.substring(start.indexOf('@') + 1));
        for (byte[] bad : malformed) {
            String name = Integer.toHexString(bad[0] & 0xFF) + "/" + bad.length;
            check("right after the run " + name, concat(concat(head, bad), tail), true);
            check("after the run and a reference " + name, concat(concat(concat(head, utf8("&#65;")), bad), tail), true);
            check("in the tail " + name, concat(concat(concat(head, utf8("</content>")), bad), utf8("</WriteBytes>")), true);
            check("at the end of a truncated body " + name, concat(head, bad), true);
        }
        assertNoFailures();
    }

    /** The content's start tag in every shape the parser accepts, each with a good and a broken tail. */
    @Test
    void startTagShapes() {
        for (String run : new String[] {mime(2000, 31), mime(2000, 32).replace("\r\n", "")}) {
            String[] shapes = {"<x:content xmlns:x=\"" + NS + "\">", "<content xmlns=\"" + NS + "\">",
                "<\u00e9:content xmlns:\u00e9=\"" + NS + "\">", "<content a=\"/>\" b='/'>", "<content a=\"x/\">",
                "<content a='>'\r\n\tb=\"'>\">", "<content\r\n>", "<content\r>", "<content\n\n>", "<content\t>",
                "<content a=\"\uD83D\uDE00\u3000\">", "<content a=\"\u0085\u2028\">", "<content a=\"&gt;&#10;\">",
                "<content xsi:nil=\"true\">", "<content xmlns:y=\"urn:y\" y:a=\"1\">"};
            for (String shape : shapes) {
                String end = shape.startsWith("<x:") ? "</x:content>" : shape.startsWith("<\u00e9") ? "</\u00e9:content>"
                        : "</content>";
                check(shape, envelope("<key>k</key>" + shape + run + end), true);
                check(shape + " spooled", envelope(shape + run + end + "<key>k</key>"), true);
                check(shape + " broken tail", envelope("<key>k</key>" + shape + run + end + "<x>"), true);
                check(shape + " element after run", envelope("<key>k</key>" + shape + run + "\r\n  <y/>" + end), true);
            }
        }
        assertNoFailures();
    }

    /** Elements named content that are not the parameter: never the fast path's, and the real one after them is. */
    @Test
    void contentsThatAreNotTheParameter() {
        String run = mime(2000, 33);
        check("foreign namespace only", envelope("<key>k</key><content xmlns=\"urn:x\">" + run + "</content>"), false);
        check("unqualified only", envelope("<key>k</key><content xmlns=\"\">" + run + "</content>"), false);
        check("too deep", envelope("<key>k</key><x><content>" + run + "</content></x>"), false);
        check("too deep, then the parameter", envelope("<key>k</key><x><content>QUJD</content></x><content>" + run
                + "</content>"), true);
        check("in a header", Fixture.soap11("").replace("<soap:Body>", "<soap:Header><content xmlns=\"" + NS + "\">"
                + run + "</content></soap:Header><soap:Body>").replace("</soap:Body>", "<WriteBytes xmlns=\"" + NS
                + "\"><key>k</key><content>" + run + "</content></WriteBytes></soap:Body>"), true);
        check("in WriteString", Fixture.soap11("<WriteString xmlns=\"" + NS + "\"><key>k</key><content>" + run
                + "</content><value>v</value></WriteString>"), false);
        check("comment and CDATA naming content before it", envelope("<key><![CDATA[<content>]]></key><!-- <content> -->"
                + "<?content <content>?><content>" + run + "</content>"), true);
        assertNoFailures();
    }

    /** The start tag at and around the recording's limit, for several ways the body arrives. */
    @Test
    void startTagAroundTheRecordingLimit() {
        String run = mime(20_000, 34);
        String before = envelope("<key>k</key><!--@--><content>");
        String comment = "";
        int tagAt = before.indexOf("<content>");
        for (int shift = -12; shift <= 12; shift += 3) {
            int padding = FastPathPolicy.RECORDING_LIMIT + shift - tagAt;
            comment = "c".repeat(padding);
            byte[] xml = utf8(keyFirst(run).replace("<content>", "<!--" + comment + "--><content>"));
            for (int chunk : new int[] {1000, 4000, 4096, 65_536, 1 << 20}) {
                checkChunked("tag at limit " + shift, xml, chunk, null);
            }
        }
        byte[] hugeKey = utf8(envelope("<key>" + "k".repeat(100_000) + "</key><content>" + run + "</content>"));
        check("huge key first", hugeKey, false);
        byte[] hugeSkipped = utf8(envelope("<key>k</key><skipped>" + "s".repeat(70_000) + "</skipped><content>" + run
                + "</content>"));
        check("huge skipped element first", hugeSkipped, false);
        assertNoFailures();
    }

    @Test
    void declaredEncodingsAndCharsets() {
        String run = mime(2000, 35);
        String body = keyFirst(run);
        for (String declaration : new String[] {"", "<?xml version=\"1.0\"?>", "<?xml version=\"1.0\" encoding=\"utf-8\"?>",
            "<?xml version=\"1.0\" encoding=\"UTF8\"?>", "<?xml version=\"1.0\" encoding=\"utf8\"?>",
            "<?xml version='1.0' encoding='UTF-8' standalone='yes'?>", "<?xml version=\"1.0\" encoding=\"UTF-16\"?>",
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>", "<?xml version=\"1.0\" encoding=\"US-ASCII\"?>",
            "<?xml version=\"1.0\" encoding=\"x-unknown\"?>", "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n\r\n"}) {
            for (String contentType : new String[] {"text/xml; charset=utf-8", "text/xml", "text/xml; charset=\"UTF-8\"",
                "text/xml; charset=UTF8", "text/xml; charset=iso-8859-1", "text/xml; charset=unknown-x"}) {
                byte[] xml = utf8(declaration + body.replace("<key>k</key>", "<key>k\u00e9</key>"));
                check(declaration + " as " + contentType, CodecLimits.defaults(), contentType, xml, null);
            }
        }
        assertNoFailures();
    }

    /** Content-Length as declared, too long (the client stops early) and absent; the body cut inside the run. */
    @Test
    void truncatedBodies() {
        String request = keyFirst(mime(30_000, 36));
        byte[] xml = utf8(request);
        int runStart = request.indexOf("<content>") + "<content>".length();
        for (int cut : new int[] {runStart, runStart + 1, runStart + 3, runStart + 4, runStart + 76, runStart + 78,
            runStart + 4095, runStart + 4096, runStart + 8191, runStart + 8192, runStart + 8193, xml.length - 40}) {
            byte[] truncated = Arrays.copyOf(xml, cut);
            for (String length : new String[] {null, Integer.toString(xml.length), Integer.toString(cut)}) {
                check("cut at " + cut + ", Content-Length " + length, CodecLimits.defaults(), StoreLimits.defaults(),
                        () -> withLength(truncated, length), true);
            }
        }
        assertNoFailures();
    }

    private static CodecRequest withLength(byte[] body, String contentLength) {
        CodecRequest.Builder builder = CodecRequest.builder("POST", Fixture.PATH).header("Content-Type", UTF8_XML)
                .header("SOAPAction", "\"" + NS + "WriteBytes\"").body(new ByteArrayInputStream(body));
        if (contentLength != null) {
            builder.header("Content-Length", contentLength);
        }
        return builder.build();
    }

    /** A read failing at and around the run's buffer boundaries. */
    @Test
    void readFailuresAroundBufferBoundaries() {
        String request = keyFirst(mime(80_000, 37));
        byte[] xml = utf8(request);
        int runStart = request.indexOf("<content>") + "<content>".length();
        for (int offset : new int[] {0, 1, 2, 3, 4, 5, 4095, 4096, 4097, 8191, 8192, 8193, 16_384, 65_535, 65_536,
            65_537}) {
            int failAt = runStart + offset;
            check("fail at run + " + offset, CodecLimits.defaults(), StoreLimits.defaults(),
                    () -> request(UTF8_XML, failingAfter(xml, failAt)), true);
        }
        assertNoFailures();
    }

    /** The content's text ending (well or badly) exactly at and around the run's buffer sizes. */
    @Test
    void contentEndingAtBufferBoundaries() {
        for (int boundary : new int[] {4096, 8192, 16_384, 32_768, 65_536, 65_536 * 2}) {
            for (int delta = -6; delta <= 6; delta++) {
                int length = boundary + delta;
                String content = ("QUJD".repeat(length / 4 + 1)).substring(0, length);
                byte[] xml = utf8(keyFirst(content));
                check("length " + length, xml, true);
                checkChunked("length " + length, xml, 4000, true);
                String padded = content.substring(0, content.length() & ~3);
                if (padded.length() >= 4) {
                    check("padding at " + padded.length(), keyFirst(padded.substring(0, padded.length() - 2) + "=="
                            + "QUJD"), true);
                }
                check("star at " + length, keyFirst(content + "*QUJD"), true);
                check("reference at " + length, keyFirst(content + "&#x41;QUJD"), true);
            }
        }
        assertNoFailures();
    }

    /** Chars the run must stop at, inside a large content: the parser's rules decide. */
    @Test
    void unusualCharsInsideALargeRun() {
        // MIME's line breaks keep the run in its own loops; plain base64 is decoded in spans by the JDK's decoder
        for (String run : new String[] {mime(10_000, 38), plain(10_000, 39)}) {
            for (int at : new int[] {run.length() / 2 & ~3, 2048 * 3 - 290, 2048 * 3 - 289, run.length() - 5}) {
                for (String odd : new String[] {"\u3000", "\u00a0", "\u2028", "\u0085", "\u000b", "\u000c", "\u0000",
                    "\uFEFF", "====", "QQ==QUJD", "\r", "\r\r\n\n", "QU\r\nJD"}) {
                    check("odd " + Integer.toHexString(odd.charAt(0)) + " at " + at,
                            keyFirst(run.substring(0, at) + odd + run.substring(at)), true);
                }
            }
        }
        assertNoFailures();
    }

    /** The store stops reading early (value too large): the rest is read through, the result as without the run. */
    @Test
    void storeStopsReadingEarly() {
        StoreLimits small = StoreLimits.builder().maxValueBytes(10_000).build();
        for (String tail : new String[] {"", "<x>"}) {
            for (String xml : new String[] {keyFirst(mime(30_000, 39)) + tail,
                envelope("<content>" + mime(30_000, 40) + "</content><key>k</key>") + tail}) {
                byte[] bytes = utf8(xml);
                check("value too large" + tail, CodecLimits.defaults(), small,
                        () -> request(UTF8_XML, new ByteArrayInputStream(bytes)), true);
            }
        }
        assertNoFailures();
    }

    /** The request size limit falling inside the run, at and around its buffer boundaries, with and without a length. */
    @Test
    void requestSizeLimitInsideTheRun() {
        String request = keyFirst(mime(100_000, 41));
        byte[] xml = utf8(request);
        int runStart = request.indexOf("<content>") + "<content>".length();
        // a limit just past the content's start tag may already be met by the parser's read ahead: either path
        for (int offset : new int[] {0, 1, 4, 8191, 8192, 8193, 65_535, 65_536, 65_537, 100_000}) {
            CodecLimits limits = CodecLimits.builder().maxRequestBytes(runStart + offset).build();
            for (String length : new String[] {null, Integer.toString(xml.length)}) {
                check("limit at run + " + offset + ", Content-Length " + length, limits, StoreLimits.defaults(),
                        () -> withLength(xml, length), length == null ? null : false);
            }
        }
        assertNoFailures();
    }

    /** Limits that the content's start tag itself meets: the second parser meets them again, the same way. */
    @Test
    void limitsOnAndAroundTheContentStartTag() {
        String run = mime(5000, 42);
        // the envelope has 3 namespace declarations and 41-char URIs: limits above those
        byte[] threeAttributes = utf8(envelope("<key>k</key><content a=\"" + "v".repeat(100) + "\" b=\"\" c=\"\">" + run
                + "</content>"));
        byte[] fourAttributes = utf8(envelope("<key>k</key><content a=\"\" b=\"\" c=\"\" d=\"" + "v".repeat(101) + "\">"
                + run + "</content>"));
        CodecLimits attributes = CodecLimits.builder().maxAttributesPerElement(3).maxAttributeValueLength(100).build();
        check("attributes at the limits", attributes, UTF8_XML, threeAttributes, true);
        check("attributes over the limit", attributes, UTF8_XML, fourAttributes, false);
        check("attribute value over the limit", CodecLimits.builder().maxAttributeValueLength(100).build(), UTF8_XML,
                fourAttributes, false);
        byte[] xml = utf8(keyFirst(run));
        check("depth at the limit", CodecLimits.builder().maxElementDepth(4).build(), UTF8_XML, xml, true);
        check("element count at the limit", CodecLimits.builder().maxElementCount(5).build(), UTF8_XML, xml, true);
        byte[] oneMoreBefore = utf8(envelope("<key>k</key><a/><content>" + run + "</content>"));
        check("element count over the limit before the run", CodecLimits.builder().maxElementCount(5).build(), UTF8_XML,
                oneMoreBefore, false);
        byte[] deepAfter = utf8(envelope("<key>k</key><content>" + run + "</content><a><b/></a>"));
        byte[] deepBefore = utf8(envelope("<key>k</key><a><b/></a><content>" + run + "</content>"));
        check("depth over the limit before the run", CodecLimits.builder().maxElementDepth(4).build(), UTF8_XML,
                deepBefore, false);
        check("depth over the limit after the run", CodecLimits.builder().maxElementDepth(4).build(), UTF8_XML, deepAfter,
                true);
        assertNoFailures();
    }

    /** Neither path leaves a spool file behind, whether the spooled request succeeds or fails after the run. */
    @Test
    void spooledContentLeavesNoTemporaryFile() throws IOException {
        CodecLimits limits = CodecLimits.builder().spoolMemoryBytes(4096).build();
        byte[] data = new byte[60_000];
        new Random(43).nextBytes(data);
        String content = Base64.getMimeEncoder().encodeToString(data);
        byte[] spooled = Arrays.copyOfRange(data, 4096, 4096 + 64); // how the spool file starts
        for (String tail : new String[] {"<key>k</key>", "<key>k</key><x>", "<key>k</key>&bad;", ""}) {
            String xml = envelope("<content>" + content + "</content>" + tail);
            List<SpoolFileFinder> bodies = new ArrayList<>();
            check("spooled, then " + tail, limits, StoreLimits.defaults(), () -> {
                SpoolFileFinder body = new SpoolFileFinder(xml, spooled);
                bodies.add(body);
                return request(UTF8_XML, body);
            }, true);
            for (SpoolFileFinder body : bodies) {
                assertTrue(body.found != null, "the spool file was seen");
                assertFalse(Files.exists(body.found), body.found + " left behind after " + tail);
            }
        }
        assertNoFailures();
    }

    /**
     * A body that, once read past the content's end, finds the spool file the request wrote (its own bytes start
     * it). The XML is ASCII: char and byte offsets agree.
     */
    private static final class SpoolFileFinder extends ByteArrayInputStream {
        private final byte[] spooled;
        private final int contentEnd;
        Path found;

        SpoolFileFinder(String xml, byte[] spooled) {
            super(utf8(xml));
            this.spooled = spooled;
            this.contentEnd = xml.indexOf("</content>");
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) {
            if (pos > contentEnd && found == null) {
                try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
                    found = files.filter(f -> f.getFileName().toString().matches("store-content-.*\\.spool"))
                            .filter(this::startsWithSpooled).findFirst().orElse(null);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            // never in one read both the content's end and what follows it, so the finder looks in between
            int limit = pos <= contentEnd ? contentEnd + 1 - pos : len;
            return super.read(b, off, Math.min(len, limit));
        }

        private boolean startsWithSpooled(Path file) {
            try (InputStream in = Files.newInputStream(file)) {
                return Arrays.equals(in.readNBytes(spooled.length), spooled);
            } catch (IOException e) {
                return false; // another request's file, gone meanwhile
            }
        }
    }

    /**
     * A body whose read fails with an unchecked exception inside the run (some servers' streams do): the codec
     * lets it through to the server adapter on both paths, and stores nothing.
     */
    @Test
    void uncheckedFailureOfTheBodyInsideTheRun() {
        for (String xml : new String[] {keyFirst(mime(80_000, 44)),
            envelope("<content>" + mime(80_000, 44) + "</content><key>k</key>")}) {
            byte[] body = utf8(xml);
            int failAt = xml.indexOf("<content>") + 20_000;
            for (FastPathPolicy policy : new FastPathPolicy[] {FastPathPolicy.never(), ContentFastPathTest.always()}) {
                ContentFastPathTest.Side side = new ContentFastPathTest.Side(policy, CodecLimits.defaults());
                CodecRequest request = request(UTF8_XML, new ByteArrayInputStream(body) {
                    @Override
                    public synchronized int read(byte[] b, int off, int len) {
                        if (pos >= failAt) {
                            throw new IllegalStateException("stream closed");
                        }
                        return super.read(b, off, Math.min(len, failAt - pos));
                    }
                });
                IllegalStateException thrown = assertThrows(IllegalStateException.class, () -> side.handle(request));
                assertEquals("stream closed", thrown.getMessage());
                assertTrue(side.stored().isEmpty());
            }
        }
    }

    /** Errors after runs with every kind of line break are located as sent: same line, same position. */
    @Test
    void errorsAfterRunsOfEveryLineBreakKind() {
        String plain = mime(2000, 45).replace("\r\n", "");
        for (String lineBreak : new String[] {"\r\n", "\n", "\r", "\r\r\n", "\n\r", " \t\r\n\t "}) {
            StringBuilder run = new StringBuilder();
            for (int i = 0; i < plain.length(); i += 76) {
                run.append(plain, i, Math.min(plain.length(), i + 76)).append(lineBreak);
            }
            for (String tail : new String[] {"<x>", "QU</content>&", "</content>\r\n<", "\u0001", "</contentx>"}) {
                check("breaks " + lineBreak.replace("\r", "CR").replace("\n", "LF") + ", tail " + tail,
                        keyFirst(run + tail), true);
            }
        }
        assertNoFailures();
    }
}
