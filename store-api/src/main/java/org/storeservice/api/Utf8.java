package org.storeservice.api;

/** UTF-8 sizes without encoding. */
final class Utf8 {
    private Utf8() {
    }

    /** Whether {@code text} encodes to more than {@code limit} UTF-8 bytes. */
    static boolean exceeds(String text, long limit) {
        if ((long) text.length() * 3 <= limit) {
            return false; // a UTF-16 char never takes more than 3 UTF-8 bytes (a pair takes 4 for 2 chars)
        }
        return encodedLength(text) > limit;
    }

    /** The number of bytes {@code text} takes in UTF-8; a lone surrogate counts as the 1-byte '?' Java writes. */
    static long encodedLength(String text) {
        long length = 0;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c < 0x80) {
                length += 1;
            } else if (c < 0x800) {
                length += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length()
                    && Character.isLowSurrogate(text.charAt(i + 1))) {
                length += 4;
                i++;
            } else if (Character.isSurrogate(c)) {
                length += 1;
            } else {
                length += 3;
            }
        }
        return length;
    }

    /** Whether {@code text} is well-formed UTF-16 (no lone surrogate), so UTF-8 can encode it exactly. */
    static boolean isWellFormed(String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
