package org.storeservice.server;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.Arrays;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One write of a crash schedule as its client saw it: the key, the value, when the request was sent and when, and
 * how, it was answered. Times are {@link System#nanoTime()} of the test JVM, taken just before the request went out
 * and just after its answer came in: the recorded interval contains the server's, so an order the checker infers
 * from them is one that really held.
 *
 * <p>A value names itself: it starts with a header (its write's id, its kind and its length, then '|'), and the rest
 * is drawn from the id, so {@link #observe} can tell from a stored value alone which write it is and whether it is
 * whole, and a history holds no values.
 */
record ClientWrite(String id, String key, Kind kind, int length, long sentNanos, Outcome outcome, long answeredNanos) {

    /** Which operation sent it. */
    enum Kind {
        /** WriteString through HTTP POST; {@code length} is its text's length in code points after the header. */
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
    private static final Pattern ID = Pattern.compile("[0-9a-z.]+");
    private static final Pattern HEADER = Pattern.compile("([0-9a-z.]+)/([TB])([0-9]+)\\|");
    private static final int LONGEST_HEADER = 64;
    /** Two-, four- and two-byte UTF-8, and a surrogate pair in UTF-16. */
    private static final int[] FILLER = "é😀ω-".codePoints().toArray();

    /** A write sent at {@code sentNanos} and not answered (yet). */
    static ClientWrite sent(String id, String key, Kind kind, int length, long sentNanos) {
        if (!ID.matcher(id).matches()) {
            throw new IllegalArgumentException("an id is [0-9a-z.]+: " + id);
        }
        ClientWrite write = new ClientWrite(id, key, kind, length, sentNanos, Outcome.NO_ANSWER, 0);
        if (kind == Kind.BYTES && length < write.header().length() + 1) {
            throw new IllegalArgumentException("shorter than its header: " + write);
        }
        return write;
    }

    /** This write, answered at {@code nanos}: {@code Success} or not. */
    ClientWrite answered(boolean success, long nanos) {
        return new ClientWrite(id, key, kind, length, sentNanos,
                success ? Outcome.ACKNOWLEDGED : Outcome.ANSWERED_ERROR, nanos);
    }

    boolean acknowledged() {
        return outcome == Outcome.ACKNOWLEDGED;
    }

    /** Whether its answer came before {@code nanos}; false if it had none. */
    boolean answeredBefore(long nanos) {
        return outcome != Outcome.NO_ANSWER && answeredNanos - nanos < 0;
    }

    boolean large() {
        return kind == Kind.BYTES && length > LARGE_BYTES;
    }

    private String header() {
        return id + "/" + (kind == Kind.TEXT ? 'T' : 'B') + length + "|";
    }

    /** The text sent (a TEXT write): the header, then {@code length} code points. */
    String text() {
        StringBuilder text = new StringBuilder(header().length() + 2 * length).append(header());
        for (int i = 0; i < length; i++) {
            text.appendCodePoint(FILLER[(i + id.length()) % FILLER.length]);
        }
        return text.toString();
    }

    /** The bytes sent (a BYTES write): the header in ASCII, a NUL, then bytes drawn from the id, {@code length} in all. */
    byte[] bytes() {
        byte[] head = header().getBytes(US_ASCII);
        byte[] bytes = new byte[length];
        SplittableRandom random = new SplittableRandom(id.hashCode());
        for (int i = head.length + 1; i < length; i++) {
            bytes[i] = (byte) random.nextInt(256);
        }
        System.arraycopy(head, 0, bytes, 0, head.length);
        return bytes;
    }

    /** The entry this write leaves when it is what a key holds. */
    ExportedEntry entry() {
        return kind == Kind.BYTES ? new ExportedEntry(true, bytes()) : new ExportedEntry(false, text().getBytes(UTF_8));
    }

    /** What a key holding {@code entry} was seen to hold. */
    static Observed observe(ExportedEntry entry) {
        return observe(entry.bytes(), entry.value());
    }

    /**
     * What a key holding {@code value} (stored as bytes, or as text in UTF-8) was seen to hold: the id its header
     * names, if any, and whether the value is exactly that write's, stored as the operation that sent it.
     */
    static Observed observe(boolean storedAsBytes, byte[] value) {
        String description = (storedAsBytes ? "bytes, " : "text, ") + value.length + " bytes";
        String start = new String(value, 0, Math.min(value.length, LONGEST_HEADER), US_ASCII);
        Matcher header = HEADER.matcher(start);
        if (!header.lookingAt()) {
            return new Observed(null, false, description);
        }
        Kind kind = header.group(2).equals("T") ? Kind.TEXT : Kind.BYTES;
        int length;
        try {
            length = Integer.parseInt(header.group(3));
        } catch (NumberFormatException e) {
            return new Observed(header.group(1), false, description);
        }
        ClientWrite named = new ClientWrite(header.group(1), "", kind, length, 0, Outcome.NO_ANSWER, 0);
        // a length that cannot fit is not whole; only one that can is worth drawing the value for
        boolean fits = kind == Kind.BYTES ? value.length == length : length <= value.length;
        boolean whole = storedAsBytes == (kind == Kind.BYTES) && fits && Arrays.equals(value, named.entry().value());
        return new Observed(named.id(), whole, description);
    }

    /**
     * A value as seen: {@code id} is the write its header names (null if it has none), {@code whole} whether it is
     * exactly that write's value, of that write's kind.
     */
    record Observed(String id, boolean whole, String description) {
        Optional<String> namedId() {
            return Optional.ofNullable(id);
        }

        @Override
        public String toString() {
            return description + (id == null ? "" : ", starting with id " + id) + (whole ? "" : ", not whole");
        }
    }

    @Override
    public String toString() {
        return id + " (" + (kind == Kind.TEXT ? "WriteString, " + length + " code points" : "WriteBytes, " + length + " bytes")
                + ", " + outcome + ")";
    }
}
