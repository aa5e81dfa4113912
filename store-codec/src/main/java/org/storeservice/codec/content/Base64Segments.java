package org.storeservice.codec.content;

/**
 * Decodes base64 handed over as char segments (the parser's text events, no String), carrying the bits of a partial
 * unit from one segment to the next. Table-driven, whole units at a time where it can.
 *
 * <p>The rules are .NET's, which ASMX reads {@code byte[]} parameters with ({@code XmlSerializationReader.ReadByteArray}
 * → {@code XmlReader.ReadElementContentAsBase64} → {@code System.Xml.Base64Decoder.Decode}): the standard alphabet;
 * XML white space (space, tab, CR, LF) ignored anywhere; each char adds six bits and every eight make a byte, so the
 * bits of a partial unit at the end are dropped (no padding needed); the first {@code =} ends the data, after which
 * only {@code =} and white space may follow; any other char is an error.
 *
 * <p>Not thread-safe: one per request.
 */
public final class Base64Segments {
    private static final int INVALID = Base64Alphabet.INVALID;
    private static final int PADDING = Base64Alphabet.PADDING;
    /** Sextet of each char below 256, {@link #INVALID} or {@link #PADDING}; non-ASCII chars are invalid. */
    private static final int[] SEXTETS = Base64Alphabet.sextets();

    /** The bits read and not yet made into a byte: the low {@link #bitsFilled} bits count. */
    private int bits;
    /** How many bits of {@link #bits} count, 0 to 7 between chars. */
    private int bitsFilled;
    /** Whether an {@code =} ended the data: from then on only {@code =} and white space. */
    private boolean padded;

    private char[] chars;
    private int position;
    private int end;

    /** The next text to decode; the previous one must have been used up ({@link #needsInput()}). */
    public void segment(char[] text, int start, int length) {
        chars = text;
        position = start;
        end = start + length;
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
        final char[] c = chars;
        int p = position;
        final int e = end;
        try {
            while (p < e) {
                if (bitsFilled == 0 && !padded) {
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
                    if (p == e) {
                        break;
                    }
                }
                char ch = c[p];
                if (isWhiteSpace(ch)) {
                    p++;
                    continue;
                }
                int sextet = ch < 128 ? SEXTETS[ch] : INVALID;
                if (padded) {
                    if (sextet != PADDING) {
                        throw new InvalidBase64Exception(describe(ch) + " after the padding '=' that ends base64"
                                + " content: only '=' and white space may follow it");
                    }
                    p++;
                } else if (sextet == PADDING) {
                    padded = true;
                    bitsFilled = 0; // the bits of a partial unit make no byte
                    p++;
                } else if (sextet < 0) {
                    throw new InvalidBase64Exception(describe(ch) + " in base64 content");
                } else {
                    if (bitsFilled >= 2 && o == outEnd) {
                        break; // this char completes a byte: at the next call
                    }
                    bits = bits << 6 | sextet;
                    bitsFilled += 6;
                    p++;
                    if (bitsFilled >= 8) {
                        bitsFilled -= 8;
                        out[o++] = (byte) (bits >> bitsFilled);
                    }
                }
            }
        } finally {
            position = p;
        }
        return o - offset;
    }

    /** XML's white space, which .NET's decoder skips ({@code XmlCharType.IsWhiteSpace}). */
    private static boolean isWhiteSpace(char ch) {
        return ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r';
    }

    /** At the end of the content: nothing to check, as in .NET (the bits of a partial unit make no byte). */
    public void end() {
        bitsFilled = 0;
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
