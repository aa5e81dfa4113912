package org.storeservice.jdbc.internal;

import java.util.Arrays;

/**
 * The {@code key_order} column: a key as UTF-16BE bytes. Databases compare text by UTF-8 bytes or by
 * collation, which is code point order; the SPI promises {@link String#compareTo(String)} order (UTF-16
 * code units), which differs for supplementary characters against U+E000..U+FFFF. Byte-wise comparison
 * of UTF-16BE equals UTF-16 code unit order, and every key that starts with a prefix has bytes that start
 * with the prefix's bytes, so scans compare this column with a plain range.
 */
public final class KeyOrder {
    private KeyOrder() {
    }

    /** The UTF-16BE bytes of {@code key}, written char by char so that nothing is replaced. */
    public static byte[] of(String key) {
        byte[] bytes = new byte[key.length() * 2];
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            bytes[2 * i] = (byte) (c >>> 8);
            bytes[2 * i + 1] = (byte) c;
        }
        return bytes;
    }

    /**
     * The smallest byte string greater than every byte string that starts with {@code prefix}, or
     * {@code null} when there is none (empty, or all 0xFF): then a scan has no upper bound.
     */
    public static byte[] successor(byte[] prefix) {
        int end = prefix.length;
        while (end > 0 && prefix[end - 1] == (byte) 0xFF) {
            end--;
        }
        if (end == 0) {
            return null;
        }
        byte[] next = Arrays.copyOf(prefix, end);
        next[end - 1]++;
        return next;
    }
}
