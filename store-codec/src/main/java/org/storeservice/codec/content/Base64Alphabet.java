package org.storeservice.codec.content;

import java.util.Arrays;

/**
 * The standard base64 alphabet, defined once for both content decoders ({@link Base64Segments} over the parser's
 * chars, the fast path over the request's bytes). Each decoder keeps its own copy of the tables for its hot loop.
 */
public final class Base64Alphabet {
    /** A char that is neither in the alphabet nor padding. */
    public static final int INVALID = -1;
    /** The padding char {@code '='}. */
    public static final int PADDING = -2;

    private static final String ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

    private Base64Alphabet() {
    }

    /** The sextet of each char (or byte) below 256, {@link #INVALID} or {@link #PADDING}; a new array. */
    public static int[] sextets() {
        int[] sextets = new int[256];
        Arrays.fill(sextets, INVALID);
        for (int i = 0; i < ALPHABET.length(); i++) {
            sextets[ALPHABET.charAt(i)] = i;
        }
        sextets['='] = PADDING;
        return sextets;
    }

    /**
     * The 12 bits of each pair of alphabet chars, indexed by the pair as a big-endian 16-bit value, else -1: one
     * lookup per two chars; a new array of 256 KiB, of which the alphabet's pairs touch ~20 KiB.
     */
    public static int[] pairs() {
        int[] pairs = new int[1 << 16];
        Arrays.fill(pairs, -1);
        for (int first = 0; first < ALPHABET.length(); first++) {
            for (int second = 0; second < ALPHABET.length(); second++) {
                pairs[ALPHABET.charAt(first) << 8 | ALPHABET.charAt(second)] = first << 6 | second;
            }
        }
        return pairs;
    }
}
