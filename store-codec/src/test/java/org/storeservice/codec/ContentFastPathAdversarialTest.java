package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.storeservice.codec.ContentFastPathTest.UTF8_XML;
import static org.storeservice.codec.ContentFastPathTest.assertSame;
import static org.storeservice.codec.ContentFastPathTest.concat;
import static org.storeservice.codec.ContentFastPathTest.envelope;
import static org.storeservice.codec.ContentFastPathTest.keyFirst;
import static org.storeservice.codec.ContentFastPathTest.mime;
import static org.storeservice.codec.Fixture.NS;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Hostile and unusual requests through the content fast path, each against the parser's path as the oracle
 * (see {@link ContentFastPathTest}): same status, headers, body and stored state.
 */
class ContentFastPathAdversarialTest {
    private final List<String> failures = new ArrayList<>();

    /** Compares one request, collecting a failure rather than stopping, so one test reports every case. */
    private void check(String what, CodecLimits limits, String contentType, byte[] body, boolean fastTaken) {
        try {
            assertSame(what, limits, contentType, () -> new ByteArrayInputStream(body), fastTaken);
        } catch (AssertionError e) {
            failures.add(what + ": " + e.getMessage());
        }
    }

    private void check(String what, byte[] body, boolean fastTaken) {
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
}
