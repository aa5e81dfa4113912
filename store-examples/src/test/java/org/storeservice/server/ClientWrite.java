package org.storeservice.server;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.Optional;
import java.util.SplittableRandom;

/**
 * One write of a crash schedule as its client saw it: the key, the value (identified by {@link #id}, which starts
 * it, and regenerated from id, kind and length, so a history holds no values), when the request was sent and
 * when, and how, it was answered. Times are {@link System#nanoTime()} of the test JVM, taken just before the
 * request went out and just after its answer came in: the recorded interval contains the server's, so an order
 * the checker infers from them is one that really held.
 */
record ClientWrite(String id, String key, Kind kind, int length, long sentNanos, Outcome outcome, long answeredNanos) {

    /** Which operation sent it. */
    enum Kind {
        /** WriteString through HTTP POST; {@code length} is its text's length in code points after the id. */
        TEXT,
        /** WriteBytes through SOAP 1.1; {@code length} is the whole value's length in bytes. */
        BYTES
    }

    /** What its client got. */
    enum Outcome {
        /** Answered {@code Success}: it took effect, between sending and answer. */
        ACKNOWLEDGED,
        /** Answered, but not {@code Success}: it must not have taken effect. */
        ANSWERED_ERROR,
        /** No answer (the server was killed while it was in flight): it may or may not have taken effect. */
        NO_ANSWER
    }

    /** Values over this many bytes are large: SQLite's writer commits each alone, after the small ones beside it. */
    static final int LARGE_BYTES = 64 * 1024;
    private static final int SEPARATOR = '|';
    /** Two-, four- and two-byte UTF-8, and a surrogate pair in UTF-16. */
    private static final int[] FILLER = "é😀ω-".codePoints().toArray();

    /** A write sent at {@code sentNanos} and not answered (yet). */
    static ClientWrite sent(String id, String key, Kind kind, int length, long sentNanos) {
        if (id.indexOf(SEPARATOR) >= 0 || !US_ASCII.newEncoder().canEncode(id)) {
            throw new IllegalArgumentException("an id is ASCII without '|': " + id);
        }
        return new ClientWrite(id, key, kind, length, sentNanos, Outcome.NO_ANSWER, Long.MAX_VALUE);
    }

    /** This write, answered at {@code nanos}: {@code Success} or not. */
    ClientWrite answered(boolean success, long nanos) {
        return new ClientWrite(id, key, kind, length, sentNanos,
                success ? Outcome.ACKNOWLEDGED : Outcome.ANSWERED_ERROR, nanos);
    }

    boolean acknowledged() {
        return outcome == Outcome.ACKNOWLEDGED;
    }

    boolean large() {
        return kind == Kind.BYTES && length > LARGE_BYTES;
    }

    /** The text sent (a TEXT write): the id, '|', then {@code length} code points. */
    String text() {
        StringBuilder text = new StringBuilder(id.length() + 1 + 2 * length).append(id).append((char) SEPARATOR);
        for (int i = 0; i < length; i++) {
            text.appendCodePoint(FILLER[i % FILLER.length]);
        }
        return text.toString();
    }

    /** The bytes sent (a BYTES write): the id in ASCII, '|', a NUL, then bytes drawn from the id, {@code length} in all. */
    byte[] bytes() {
        byte[] head = (id + (char) SEPARATOR).getBytes(US_ASCII);
        if (length < head.length + 1) {
            throw new IllegalStateException("shorter than its id: " + this);
        }
        byte[] bytes = new byte[length];
        SplittableRandom random = new SplittableRandom(id.hashCode());
        for (int i = head.length + 1; i < length; i++) {
            bytes[i] = (byte) random.nextInt(256);
        }
        System.arraycopy(head, 0, bytes, 0, head.length);
        return bytes;
    }

    /** The entry this write leaves when it is what survives. */
    ExportedEntry entry() {
        return kind == Kind.BYTES ? new ExportedEntry(true, bytes()) : new ExportedEntry(false, text().getBytes(UTF_8));
    }

    /** The id a stored value starts with, if it starts with one (an ASCII prefix ended by '|', within 100 bytes). */
    static Optional<String> idOf(ExportedEntry entry) {
        byte[] value = entry.value();
        for (int i = 0; i < Math.min(value.length, 100); i++) {
            if (value[i] == SEPARATOR) {
                return Optional.of(new String(value, 0, i, US_ASCII));
            }
            if (value[i] < 0x20) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }

    @Override
    public String toString() {
        return id + " (" + (kind == Kind.TEXT ? "WriteString, " + length + " code points" : "WriteBytes, " + length + " bytes")
                + ", " + outcome + ")";
    }
}
