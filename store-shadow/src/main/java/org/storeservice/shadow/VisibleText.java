package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;

/**
 * Text as a person reads it in a report, on one line: a CR shown as {@code \r}, an LF as {@code \n}, another control
 * character as a backslash, {@code u} and its four hex digits, a tab as it is; from bytes, a byte that is not part of a UTF-8 character as
 * {@code \xNN}. What {@code compare} and the shadow proxy's differences both print. Stateless.
 */
public final class VisibleText {
    private VisibleText() {
    }

    /** {@code text} with its line ends and control characters made visible. */
    public static String of(String text) {
        StringBuilder shown = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); i++) {
            append(shown, text.charAt(i));
        }
        return shown.toString();
    }

    /** {@code bytes[from..to)} as UTF-8 text, line ends, control characters and bytes outside a character made visible. */
    public static String of(byte[] bytes, int from, int to) {
        StringBuilder shown = new StringBuilder(to - from + 8);
        int i = from;
        while (i < to) {
            int b = bytes[i] & 0xFF;
            int length = b < 0x80 ? 1 : b >= 0xC2 && b <= 0xDF ? 2 : b >= 0xE0 && b <= 0xEF ? 3 : b >= 0xF0 && b <= 0xF4 ? 4 : 0;
            String character = length == 0 || i + length > to ? null : utf8(bytes, i, length);
            if (character == null) {
                shown.append(String.format("\\x%02x", b));
                i++;
                continue;
            }
            for (int c = 0; c < character.length(); c++) {
                append(shown, character.charAt(c));
            }
            i += length;
        }
        return shown.toString();
    }

    private static void append(StringBuilder shown, char c) {
        if (c == '\r') {
            shown.append("\\r");
        } else if (c == '\n') {
            shown.append("\\n");
        } else if (c < 0x20 && c != '\t' || c == 0x7F) {
            shown.append(String.format("\\u%04x", (int) c));
        } else {
            shown.append(c);
        }
    }

    private static String utf8(byte[] bytes, int at, int length) {
        try {
            return UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes, at, length)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
    }
}
