package org.storeservice.codec.soap;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Where .NET's {@code XmlTextReader} says an XML declaration's version is invalid: "Line l, position p." at the
 * first character of the version's value ({@code XmlTextReaderImpl.ParseXmlDeclaration} throws with the reader at
 * that character; a byte-order mark is not counted, CR LF is one line break, positions count from 1). Read from
 * the body's first bytes as sent, since the parser does not report where in the declaration the value stood.
 */
final class VersionPosition {
    private VersionPosition() {
    }

    /** {@code " Line l, position p."} for the declaration at the start of {@code head}, or {@code ""} if there is none. */
    static String in(byte[] head) {
        String text = text(head);
        if (!text.startsWith("<?xml")) {
            return "";
        }
        int line = 1;
        int lineStart = 0;
        int i = 5;
        boolean afterName = false;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '\r' || c == '\n') {
                i += c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n' ? 2 : 1;
                line++;
                lineStart = i;
            } else if (c == ' ' || c == '\t') {
                i++;
            } else if (!afterName && text.startsWith("version", i)) {
                i += "version".length();
                afterName = true;
            } else if (afterName && c == '=') {
                i++;
            } else if (afterName && (c == '"' || c == '\'')) {
                return " Line " + line + ", position " + (i + 1 - lineStart + 1) + '.';
            } else {
                return "";
            }
        }
        return "";
    }

    /** The head as text: in the encoding its byte-order mark or its first bytes show, the mark dropped. */
    private static String text(byte[] b) {
        if (starts(b, 0xEF, 0xBB, 0xBF)) {
            return new String(b, 3, b.length - 3, StandardCharsets.UTF_8);
        }
        if (starts(b, 0x00, 0x00, 0xFE, 0xFF)) {
            return new String(b, 4, b.length - 4, Charset.forName("UTF-32BE"));
        }
        if (starts(b, 0xFF, 0xFE, 0x00, 0x00)) {
            return new String(b, 4, b.length - 4, Charset.forName("UTF-32LE"));
        }
        if (starts(b, 0xFE, 0xFF)) {
            return new String(b, 2, b.length - 2, StandardCharsets.UTF_16BE);
        }
        if (starts(b, 0xFF, 0xFE)) {
            return new String(b, 2, b.length - 2, StandardCharsets.UTF_16LE);
        }
        if (starts(b, 0x3C, 0x00, 0x00, 0x00)) {
            return new String(b, Charset.forName("UTF-32LE"));
        }
        if (starts(b, 0x00, 0x00, 0x00, 0x3C)) {
            return new String(b, Charset.forName("UTF-32BE"));
        }
        if (starts(b, 0x3C, 0x00)) {
            return new String(b, StandardCharsets.UTF_16LE);
        }
        if (starts(b, 0x00, 0x3C)) {
            return new String(b, StandardCharsets.UTF_16BE);
        }
        return new String(b, StandardCharsets.ISO_8859_1); // the declaration is ASCII in every other encoding
    }

    private static boolean starts(byte[] bytes, int... prefix) {
        if (bytes.length < prefix.length) {
            return false;
        }
        for (int i = 0; i < prefix.length; i++) {
            if ((bytes[i] & 0xFF) != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
