package org.storeservice.jdbc.internal;

import java.nio.charset.StandardCharsets;
import org.storeservice.api.storage.StorageException;

/**
 * What the SQL backends can store exactly. Both keep text as UTF-8, which cannot encode a lone
 * surrogate (Java would silently write '?'), and PostgreSQL text cannot hold U+0000. So: keys and text
 * values with a lone surrogate, and keys with U+0000, are refused; a text value with U+0000 is kept
 * as UTF-8 bytes in the bytes column, still marked as text, so it reads back exactly.
 */
public final class TextValues {
    private TextValues() {
    }

    public static void checkKey(String key) throws StorageException {
        if (key.indexOf('\0') >= 0) {
            throw new StorageException("Key contains U+0000, which the SQL backends cannot store");
        }
        if (!wellFormed(key)) {
            throw new StorageException("Key contains a lone UTF-16 surrogate, which UTF-8 cannot encode");
        }
    }

    public static void checkText(String text) throws StorageException {
        if (!wellFormed(text)) {
            throw new StorageException("Text contains a lone UTF-16 surrogate, which UTF-8 cannot encode");
        }
    }

    /** Whether {@code text} must go to the bytes column because a SQL text column cannot hold it. */
    public static boolean needsBytesColumn(String text) {
        return text.indexOf('\0') >= 0;
    }

    public static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    public static String fromUtf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static boolean wellFormed(String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c)) {
                if (i + 1 >= s.length() || !Character.isLowSurrogate(s.charAt(i + 1))) {
                    return false;
                }
                i++;
            } else if (Character.isLowSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
