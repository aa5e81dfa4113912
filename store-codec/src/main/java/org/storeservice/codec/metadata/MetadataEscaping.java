package org.storeservice.codec.metadata;

import java.nio.charset.StandardCharsets;
import org.storeservice.codec.wire.TextEscaping;

/**
 * The escaping the metadata documents need: markup (XML and polyglot HTML share one), URI components
 * (percent-encoding), and ASP.NET's {@code HttpUtility.UrlEncode} for the help pages' relative links.
 */
public final class MetadataEscaping {
    private static final char[] HEX_UPPER = "0123456789ABCDEF".toCharArray();
    private static final char[] HEX_LOWER = "0123456789abcdef".toCharArray();

    private MetadataEscaping() {
    }

    /**
     * {@code text} safe in XML/HTML text and in double- or single-quoted attributes. CR, LF and TAB become
     * character references so that attribute-value normalization cannot change them.
     */
    public static String markup(String text) {
        return TextEscaping.replacing(text, c -> switch (c) {
            case '&' -> "&amp;";
            case '<' -> "&lt;";
            case '>' -> "&gt;";
            case '"' -> "&quot;";
            case '\'' -> "&#39;";
            case '\r' -> "&#xD;";
            case '\n' -> "&#xA;";
            case '\t' -> "&#x9;";
            default -> null;
        });
    }

    /** Whether every character of {@code text} may appear in an XML 1.0 document. */
    static boolean isXmlText(String text) {
        return text.codePoints().allMatch(cp -> cp == 0x9 || cp == 0xA || cp == 0xD
                || (cp >= 0x20 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF));
    }

    /**
     * Percent-encodes (UTF-8, upper-case hex) every character of {@code text} that is not ASCII
     * unreserved, a sub-delimiter, or one of {@code extraAllowed}. A {@code '%'} already followed by two
     * hex digits is kept, as {@code System.Uri} keeps existing escapes.
     */
    static String percentEncode(String text, String extraAllowed) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (int i = 0; i < text.length(); ) {
            int cp = text.codePointAt(i);
            int width = Character.charCount(cp);
            if (cp < 0x80 && (isUnreserved((char) cp) || "!$&'()*+,;=".indexOf(cp) >= 0
                    || extraAllowed.indexOf(cp) >= 0 || (cp == '%' && isHexAt(text, i + 1) && isHexAt(text, i + 2)))) {
                out.append((char) cp);
            } else {
                for (byte b : new String(Character.toChars(cp)).getBytes(StandardCharsets.UTF_8)) {
                    out.append('%').append(HEX_UPPER[(b >> 4) & 0xF]).append(HEX_UPPER[b & 0xF]);
                }
            }
            i += width;
        }
        return out.toString();
    }

    /**
     * ASP.NET's {@code HttpUtility.UrlEncode(s, UTF8)}: letters, digits and {@code -_.!*()} stay, a space
     * becomes {@code '+'}, everything else {@code %xx} with lower-case hex.
     */
    static String aspNetUrlEncode(String text) {
        StringBuilder out = new StringBuilder(text.length() + 8);
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xFF);
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "-_.!*()".indexOf(c) >= 0)) {
                out.append(c);
            } else if (c == ' ') {
                out.append('+');
            } else {
                out.append('%').append(HEX_LOWER[c >> 4]).append(HEX_LOWER[c & 0xF]);
            }
        }
        return out.toString();
    }

    private static boolean isUnreserved(char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || "-._~".indexOf(c) >= 0;
    }

    private static boolean isHexAt(String text, int index) {
        return index < text.length() && Character.digit(text.charAt(index), 16) >= 0;
    }
}
