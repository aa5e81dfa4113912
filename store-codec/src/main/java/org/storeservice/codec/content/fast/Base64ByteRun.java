package org.storeservice.codec.content.fast;

import java.io.IOException;
import java.io.InputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Base64;
import org.storeservice.codec.content.Base64Alphabet;
import org.storeservice.codec.content.Base64Segments;
import org.storeservice.codec.wire.BodyTail;

/**
 * Decodes the leading run of whole base64 units of {@code <content>} straight from the request bytes, 4 bytes
 * to 3 per step, as {@link Base64Segments} would decode the same chars: whole units of the standard alphabet,
 * with white space between them. The run stops before the first unit that is not whole and plain (padding, white
 * space inside it, markup, a reference, a char that is not base64 or XML white space, the end of the body, or a
 * read that failed), so everything unusual is left to the parser and {@link Base64Segments}, which starts it on a
 * unit boundary: the run is only chars that the parser would have passed on unchanged as text.
 *
 * <p>Whole spans of plain chars go through the JDK's decoder, which HotSpot runs as a vector stub where it has one for
 * the CPU: ten times this class's own loops there, a tenth slower elsewhere; the loops decode the rest (BENCHMARKS.md,
 * twelfth round).
 *
 * <p>Counts the run's chars and line breaks as the parser counts them, so that locations after it can be
 * reported as if it had been parsed. Not thread-safe: one per request.
 */
final class Base64ByteRun {
    private static final int INVALID = Base64Alphabet.INVALID;
    private static final Base64.Decoder BASE64 = Base64.getDecoder();
    /** Sextet of each byte, {@link #INVALID} or padding (negative too). */
    private static final int[] SEXTETS = Base64Alphabet.sextets();
    /** The 12 bits of each pair of alphabet bytes, else -1: half the lookups of {@link #SEXTETS} in the hot loop. */
    private static final int[] PAIRS = Base64Alphabet.pairs();
    private static final VarHandle LONG_BIG_ENDIAN =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT_BIG_ENDIAN =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle SHORT_BIG_ENDIAN =
            MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    /** Chars of one span for the JDK's decoder: shorter spans pay its call more often, longer ones leave a longer tail. */
    private static final int SPAN_CHARS = 2048;
    private static final int SPAN_BYTES = SPAN_CHARS / 4 * 3;
    /**
     * Body bytes that must follow a span before it is tried: the markup closing a content ({@code </content>} and the
     * elements around it) is shorter, so the span that would meet it, which the JDK's decoder would refuse with an
     * exception, is left to this class's loops instead.
     */
    private static final int SPAN_TAIL = 512;

    private final InputStream source;
    private final byte[] in;
    private int position;
    private int limit;
    /** Bytes dropped from the front of {@link #in} so far: {@code discarded + position} is the offset in the run. */
    private long discarded;
    private boolean sourceEnded;
    private IOException readFailure;
    private boolean ended;
    /** Set once the JDK's decoder refused a span (the run has white space or ends inside it): no more spans. */
    private boolean spansRefused;
    private byte[] span;
    private byte[] spanDecoded;
    private int spansDecoded;

    /** Decoded bytes not yet handed out, high byte first. */
    private int pendingBits;
    private int pending;

    private int lineBreaks;
    private long afterLastLineBreak;
    private boolean afterCarriageReturn;

    /** Whether {@link #findContentEnd()} has looked. */
    private boolean contentEndSought;
    /** Body bytes from the {@code <} closing the content to the body's end; -1 if not found. */
    private int afterContent = -1;
    /** The {@code =} just before that {@code <}: padding, decoding to no byte. */
    private int padding;

    /**
     * A run starting at {@code in[0]}, with {@code in[0, limit)} already read; more comes from {@code source}
     * into the rest of {@code in} (at least 4 bytes long).
     */
    Base64ByteRun(byte[] in, int limit, InputStream source) {
        this.in = in;
        this.limit = limit;
        this.source = source;
        this.spansRefused = in.length < SPAN_CHARS + SPAN_TAIL;
    }

    /**
     * How many of {@code bytes[from, to)} are base64 alphabet, padding or XML white space: a cheap look at the
     * bytes already read, to judge whether the run is worth it.
     */
    static int plainLength(byte[] bytes, int from, int to) {
        int i = from;
        while (i < to) {
            int b = bytes[i] & 0xFF;
            if (SEXTETS[b] == INVALID && !isWhiteSpace(b)) {
                break;
            }
            i++;
        }
        return i - from;
    }

    /**
     * Decodes into {@code out[offset, offset + length)}, {@code length > 0}.
     *
     * @return bytes written, at least 1; -1 once the run has ended and every byte of it was handed out
     */
    int decode(byte[] out, int offset, int length) {
        int o = offset;
        final int outEnd = offset + length;
        while (true) {
            while (pending > 0) {
                if (o == outEnd) {
                    return length;
                }
                out[o++] = (byte) (pendingBits >> (8 * --pending));
            }
            if (ended) {
                return o > offset ? o - offset : -1;
            }
            if (!spansRefused && outEnd - o >= SPAN_BYTES) {
                o = decodeSpans(out, o, outEnd);
            }
            final byte[] b = in;
            int p = position;
            final int e = limit;
            // 8 plain chars to 6 bytes per step; anything else (white space, padding, the run's end) drops to
            // the unit-by-unit loop below, which decides exactly as before.
            while (e - p >= 8 && outEnd - o >= 6) {
                long chars = (long) LONG_BIG_ENDIAN.get(b, p);
                int first = PAIRS[(int) (chars >>> 48)];
                int second = PAIRS[(int) (chars >>> 32) & 0xFFFF];
                int third = PAIRS[(int) (chars >>> 16) & 0xFFFF];
                int fourth = PAIRS[(int) chars & 0xFFFF];
                if ((first | second | third | fourth) < 0) {
                    break;
                }
                int high = first << 12 | second;
                int low = third << 12 | fourth;
                INT_BIG_ENDIAN.set(out, o, high << 8 | low >>> 16);
                SHORT_BIG_ENDIAN.set(out, o + 4, (short) low);
                o += 6;
                p += 8;
            }
            while (e - p >= 4 && outEnd - o >= 3) {
                int v = SEXTETS[b[p] & 0xFF] << 18 | SEXTETS[b[p + 1] & 0xFF] << 12
                        | SEXTETS[b[p + 2] & 0xFF] << 6 | SEXTETS[b[p + 3] & 0xFF];
                if (v < 0) {
                    break; // white space, padding or the end of the run: one unit at a time
                }
                out[o] = (byte) (v >> 16);
                out[o + 1] = (byte) (v >> 8);
                out[o + 2] = (byte) v;
                o += 3;
                p += 4;
            }
            position = p;
            if (o == outEnd) {
                return length;
            }
            nextUnit();
        }
    }

    /**
     * Decodes whole spans of {@link #SPAN_CHARS} plain chars with the JDK's decoder while {@link #SPAN_TAIL} more
     * bytes follow each one and {@code out} has room, and returns the new output offset. The JDK's decoder accepts
     * exactly the alphabet, and padding only at the end, so a span whose last char is not padding is decoded only
     * if all of it is whole plain units, as the loops in {@link #decode} would decode it; anything else is left to
     * them, for the rest of the run if the decoder refused the span.
     */
    private int decodeSpans(byte[] out, int offset, int outEnd) {
        int o = offset;
        while (outEnd - o >= SPAN_BYTES) {
            while (limit - position < SPAN_CHARS + SPAN_TAIL) {
                if (!fill()) {
                    return o; // the run's end is in the buffer: the loops decode the tail
                }
            }
            if (in[position + SPAN_CHARS - 1] == '=') {
                return o; // padding (which ends the data) at the span's end: the loops decide
            }
            if (span == null) {
                span = new byte[SPAN_CHARS];
                spanDecoded = new byte[SPAN_BYTES];
            }
            System.arraycopy(in, position, span, 0, SPAN_CHARS);
            try {
                BASE64.decode(span, spanDecoded);
            } catch (IllegalArgumentException notPlain) {
                spansRefused = true;
                return o;
            }
            System.arraycopy(spanDecoded, 0, out, o, SPAN_BYTES);
            o += SPAN_BYTES;
            position += SPAN_CHARS;
            spansDecoded++;
        }
        return o;
    }

    /** How many spans the JDK's decoder decoded, so tests can tell that it did. */
    int spansDecoded() {
        return spansDecoded;
    }

    /**
     * An estimate of the bytes still to be decoded. Exact for a plain content of a body collected in full
     * ({@link BodyTail}), when the body's end shows where the content ends; else three for every four bytes of the
     * body not yet decoded, a few past the truth (the run may end before them). 0 once the run has ended and is
     * handed out.
     */
    int remainingEstimate() {
        if (ended) {
            return pending;
        }
        long undecoded = limit - position;
        if (!sourceEnded && readFailure == null) {
            try {
                undecoded += source.available();
            } catch (IOException e) {
                // no estimate of the rest; the read that fails will report it
            }
        }
        findContentEnd();
        long chars = undecoded - afterContent;
        long estimate = afterContent >= 0 && chars >= padding && chars % 4 == 0
                ? chars / 4 * 3 - padding // the content's own chars; white space among them would only add to it
                : undecoded / 4 * 3;
        return (int) Math.min(Integer.MAX_VALUE - 8, pending + estimate);
    }

    /**
     * Looks once at the body's last bytes for the {@code <} that closes the content: the last {@code <} after a base64
     * char or {@code =}. Anything else before a {@code <} (a {@code >}, white space, a CDATA section's end) is not a
     * plain content's end, and no such {@code <} leaves the estimate as before. An odd content can mislead it (a
     * comment inside it, white space before its end tag): the estimate is then off, which costs a store that sizes an
     * array from it only a copy, never a byte of the value.
     */
    private void findContentEnd() {
        if (contentEndSought) {
            return;
        }
        contentEndSought = true;
        if (!(source instanceof BodyTail body)) {
            return;
        }
        byte[] last = new byte[SPAN_TAIL];
        int n = body.copyTail(last);
        for (int i = n - 1; i > 0; i--) {
            int before = last[i - 1] & 0xFF;
            if (last[i] == '<' && (before == '=' || SEXTETS[before] >= 0)) {
                afterContent = n - i;
                while (padding < 2 && i - 1 - padding >= 0 && last[i - 1 - padding] == '=') {
                    padding++;
                }
                return;
            }
        }
    }

    /** Skips white space, then reads one whole unit into {@link #pendingBits}, or ends the run before it. */
    private void nextUnit() {
        while (true) {
            if (position == limit && !fill()) {
                ended = true;
                return;
            }
            int c = in[position] & 0xFF;
            if (c == '\r') {
                lineBreak();
                afterCarriageReturn = true;
            } else if (c == '\n') {
                if (!afterCarriageReturn) {
                    lineBreak();
                } else {
                    afterLastLineBreak++; // the line starts after the LF of CR LF
                }
                afterCarriageReturn = false;
            } else if (c == ' ' || c == '\t') {
                afterCarriageReturn = false;
            } else {
                afterCarriageReturn = false;
                break;
            }
            position++;
        }
        while (limit - position < 4) {
            if (!fill()) {
                ended = true; // a partial unit at the end of what could be read: the parser's to report
                return;
            }
        }
        int s0 = SEXTETS[in[position] & 0xFF];
        int s1 = SEXTETS[in[position + 1] & 0xFF];
        int s2 = SEXTETS[in[position + 2] & 0xFF];
        int s3 = SEXTETS[in[position + 3] & 0xFF];
        if ((s0 | s1 | s2 | s3) < 0) {
            // Padding (which ends the data and lets only padding and white space follow), white space inside a
            // unit, or anything else: the parser's, where Base64Segments applies the rules.
            ended = true;
            return;
        }
        pendingBits = s0 << 18 | s1 << 12 | s2 << 6 | s3;
        pending = 3;
        position += 4;
    }

    private void lineBreak() {
        lineBreaks++;
        afterLastLineBreak = discarded + position + 1;
    }

    /** Reads more from the source behind what is left; false at its end or if the read failed. */
    private boolean fill() {
        if (sourceEnded || readFailure != null) {
            return false;
        }
        if (position > 0) {
            System.arraycopy(in, position, in, 0, limit - position);
            discarded += position;
            limit -= position;
            position = 0;
        }
        try {
            int n = source.read(in, limit, in.length - limit);
            if (n < 0) {
                sourceEnded = true;
                return false;
            }
            limit += n;
            return true;
        } catch (IOException e) {
            readFailure = e; // the parser gets it where it would have: after the bytes before it
            return false;
        }
    }

    /** Chars in the run (all ASCII, so also bytes): the offset of its end from its start. */
    long chars() {
        return discarded + position;
    }

    /** Line breaks in the run, counted as the parser counts them (CR LF is one). */
    int lineBreaks() {
        return lineBreaks;
    }

    /** Chars of the run after its last line break (all of them if it has none). */
    long charsAfterLastLineBreak() {
        return chars() - afterLastLineBreak;
    }

    /** What follows the run in the body: the bytes read but not decoded, then the source, then its failure. */
    InputStream rest(byte[] before) {
        return new SplicedInput(before, in, position, limit, sourceEnded ? null : source, readFailure);
    }

    private static boolean isWhiteSpace(int b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r';
    }
}
