package org.storeservice.codec.content.fast;

import java.nio.charset.StandardCharsets;

/**
 * Where the start tag of {@code <content>} ends in the raw UTF-8 bytes of a request: found from the parser's
 * char offset of the tag, then checked against the bytes, so that a mismatch means no fast path rather than
 * a wrong one. Also where the tag's end is in the parser's terms (char offset, line, column), as the parser
 * counts them: chars are UTF-16 units, CR LF, CR and LF each end a line.
 *
 * @param end byte offset just after the tag's {@code >}
 * @param endCharOffset the parser's char offset of the first char after the tag
 * @param endLine the parser's line of the first char after the tag
 * @param endColumn the parser's column of the first char after the tag
 */
record ContentStartTag(int end, long endCharOffset, int endLine, int endColumn) {
    private static final int UTF8_BOM_LENGTH = 3;

    /**
     * The tag whose {@code <} the parser put at {@code charOffset}, {@code line}, {@code column}, in
     * {@code bytes[0, length)}; {@code null} if the bytes do not show a {@code prefix:content} start tag there
     * that ends within them with {@code >} (not {@code />}).
     *
     * @param bomSkipped whether the parser skipped a UTF-8 byte order mark (it does when it detected the
     *     encoding itself; it counts it as a char when told the encoding)
     */
    static ContentStartTag locate(byte[] bytes, int length, boolean bomSkipped, long charOffset, int line, int column,
            String prefix) {
        if (charOffset < 0 || line < 1 || column < 1) {
            return null;
        }
        int i = bomSkipped ? UTF8_BOM_LENGTH : 0;
        long chars = 0;
        while (chars < charOffset && i < length) {
            int width = byteLength(bytes[i]);
            if (width == 0) {
                return null;
            }
            chars += width == 4 ? 2 : 1;
            i += width;
        }
        if (chars != charOffset || i >= length || bytes[i] != '<' || !nameAt(bytes, length, i + 1, prefix)) {
            return null;
        }
        int currentLine = line;
        int currentColumn = column;
        boolean afterCarriageReturn = false;
        byte quote = 0;
        while (i < length) {
            byte b = bytes[i];
            int width = byteLength(b);
            if (width == 0 || i + width > length) {
                return null;
            }
            if (quote == 0 && b == '>') {
                if (bytes[i - 1] == '/') {
                    return null; // <content/>: nothing to decode
                }
                return new ContentStartTag(i + 1, chars + 1, currentLine, currentColumn + 1);
            }
            if (quote == 0 && (b == '"' || b == '\'')) {
                quote = b;
            } else if (b == quote) {
                quote = 0;
            }
            int units = width == 4 ? 2 : 1;
            chars += units;
            if (b == '\r') {
                currentLine++;
                currentColumn = 1;
            } else if (b == '\n') {
                if (!afterCarriageReturn) {
                    currentLine++;
                }
                currentColumn = 1;
            } else {
                currentColumn += units;
            }
            afterCarriageReturn = b == '\r';
            i += width;
        }
        return null; // the tag does not end within the bytes
    }

    /** {@code prefix:content} (or {@code content}) at {@code at}, followed by white space, '/' or '>'. */
    private static boolean nameAt(byte[] bytes, int length, int at, String prefix) {
        byte[] name = (prefix == null || prefix.isEmpty() ? "content" : prefix + ":content")
                .getBytes(StandardCharsets.UTF_8);
        if (length - at <= name.length) {
            return false;
        }
        for (int k = 0; k < name.length; k++) {
            if (bytes[at + k] != name[k]) {
                return false;
            }
        }
        byte after = bytes[at + name.length];
        return after == '>' || after == '/' || after == ' ' || after == '\t' || after == '\r' || after == '\n';
    }

    /** Bytes of the UTF-8 sequence this byte starts; 0 if it does not start one. */
    private static int byteLength(byte lead) {
        int b = lead & 0xFF;
        if (b < 0x80) {
            return 1;
        }
        if (b >= 0xF8 || b < 0xC0) {
            return 0;
        }
        return b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2;
    }
}
