package org.storeservice.codec.content;

/**
 * Decodes base64 handed over as char segments (the parser's text events, no String), carrying a partial
 * 4-character unit from one segment to the next. Table-driven, whole units at a time where it can.
 *
 * <p>The rules are those Woodstox's {@code readElementAsBinary} applied (stax2's default MIME variant), which
 * decoded {@code <content>} before, so the service accepts exactly what it accepted: the standard alphabet;
 * white space (any char up to U+0020) only between units; {@code =} only as a unit's 3rd and 4th or its 4th
 * character; further units may follow a padded one; a partial unit at the end is an error.
 *
 * <p>Not thread-safe: one per request.
 */
public final class Base64Segments {
    private static final int INVALID = Base64Alphabet.INVALID;
    private static final int PADDING = Base64Alphabet.PADDING;
    /** Sextet of each char below 256, {@link #INVALID} or {@link #PADDING}; non-ASCII chars are invalid. */
    private static final int[] SEXTETS = Base64Alphabet.sextets();

    /** Chars of the unit read so far (0 to 3), or {@link #AFTER_ONE_PAD} after "xx=". */
    private int unitChars;
    private static final int AFTER_ONE_PAD = 4;
    /** The unit's bits so far; once complete, the bytes not yet handed out, high byte first. */
    private int bits;
    /** Bytes of a completed unit not yet handed out (0 to 3). */
    private int pending;

    private char[] chars;
    private int position;
    private int end;

    /** The next text to decode; the previous one must have been used up ({@link #needsInput()}). */
    public void segment(char[] text, int start, int length) {
        chars = text;
        position = start;
        end = start + length;
    }

    /** True when the current segment is used up and every decoded byte was handed out. */
    boolean needsInput() {
        return position == end && pending == 0;
    }

    /**
     * Decodes into {@code out[offset, offset + length)} until it is full or the segment is used up.
     *
     * @return bytes written
     * @throws InvalidBase64Exception at the first char that breaks the rules
     */
    public int decode(byte[] out, int offset, int length) throws InvalidBase64Exception {
        int o = offset;
        final int outEnd = offset + length;
        while (pending > 0) {
            if (o == outEnd) {
                return length; // a part shorter than the unit's bytes: the rest at the next call
            }
            out[o++] = (byte) (bits >> (8 * --pending));
        }
        final char[] c = chars;
        int p = position;
        final int e = end;
        while (true) {
            if (unitChars == 0) {
                // Whole units: any char that is not a plain alphabet char (white space, padding, non-ASCII,
                // invalid) makes the OR of the sextets negative and leaves it to the char-by-char path.
                while (e - p >= 4 && outEnd - o >= 3) {
                    char c0 = c[p];
                    char c1 = c[p + 1];
                    char c2 = c[p + 2];
                    char c3 = c[p + 3];
                    if ((c0 | c1 | c2 | c3) >= 128) {
                        break;
                    }
                    int v = SEXTETS[c0] << 18 | SEXTETS[c1] << 12 | SEXTETS[c2] << 6 | SEXTETS[c3];
                    if (v < 0) {
                        break;
                    }
                    out[o] = (byte) (v >> 16);
                    out[o + 1] = (byte) (v >> 8);
                    out[o + 2] = (byte) v;
                    o += 3;
                    p += 4;
                }
                while (p < e && c[p] <= ' ') {
                    p++;
                }
            }
            if (p == e || o == outEnd) {
                position = p;
                return o - offset;
            }
            char ch = c[p++];
            int sextet = ch < 128 ? SEXTETS[ch] : INVALID;
            switch (unitChars) {
                case 0 -> {
                    if (sextet < 0) {
                        throw invalid(ch, 0);
                    }
                    bits = sextet;
                    unitChars = 1;
                }
                case 1 -> {
                    if (sextet < 0) {
                        throw invalid(ch, 1);
                    }
                    bits = bits << 6 | sextet;
                    unitChars = 2;
                }
                case 2 -> {
                    if (sextet == PADDING) {
                        unitChars = AFTER_ONE_PAD;
                    } else if (sextet < 0) {
                        throw invalid(ch, 2);
                    } else {
                        bits = bits << 6 | sextet;
                        unitChars = 3;
                    }
                }
                case 3 -> {
                    if (sextet == PADDING) {
                        bits >>= 2; // 18 bits, 2 of them fill: two bytes
                        pending = 2;
                    } else if (sextet < 0) {
                        throw invalid(ch, 3);
                    } else {
                        bits = bits << 6 | sextet;
                        pending = 3;
                    }
                    unitChars = 0;
                }
                default -> { // AFTER_ONE_PAD
                    if (ch != '=') {
                        throw new InvalidBase64Exception(describe(ch) + " as character #4 of a base64 unit"
                                + " whose 3rd is padding: expected padding '='");
                    }
                    bits >>= 4; // 12 bits, 4 of them fill: one byte
                    pending = 1;
                    unitChars = 0;
                }
            }
            while (pending > 0) {
                if (o == outEnd) { // the rest at the next call
                    position = p;
                    return o - offset;
                }
                out[o++] = (byte) (bits >> (8 * --pending));
            }
        }
    }

    /** At the end of the content: a partial unit is an error. */
    public void end() throws InvalidBase64Exception {
        if (unitChars != 0) {
            throw new InvalidBase64Exception("Incomplete base64 unit at the end of the content");
        }
    }

    private static InvalidBase64Exception invalid(char ch, int index) {
        if (ch <= ' ') {
            return new InvalidBase64Exception(describe(ch) + " as character #" + (index + 1)
                    + " of a 4-character base64 unit: white space is only allowed between units");
        }
        if (ch == '=') {
            return new InvalidBase64Exception(describe(ch) + " as character #" + (index + 1)
                    + " of a 4-character base64 unit: padding is only allowed as the 3rd or 4th character");
        }
        return new InvalidBase64Exception(describe(ch) + " in base64 content");
    }

    private static String describe(char ch) {
        String code = "(code 0x" + Integer.toHexString(ch) + ")";
        if (ch <= ' ') {
            return "White space " + code;
        }
        if (ch == '=') {
            return "Padding '='";
        }
        if (!Character.isDefined(ch) || Character.isISOControl(ch) || Character.isSurrogate(ch)) {
            return "Illegal character " + code;
        }
        return "Illegal character '" + ch + "' " + code;
    }

    /** A rule of base64 broken; the message says which and where in the unit. */
    public static final class InvalidBase64Exception extends Exception {
        private static final long serialVersionUID = 1L;

        InvalidBase64Exception(String message) {
            super(message);
        }
    }
}
