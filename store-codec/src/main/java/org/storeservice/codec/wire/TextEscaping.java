package org.storeservice.codec.wire;

import java.util.Locale;

/** The two text escapings ASMX applies to error messages on the wire. */
public final class TextEscaping {
    private TextEscaping() {
    }

    /**
     * Escapes XML text as .NET's XmlTextWriter does: {@code &}, {@code <}, {@code >}; CR, LF and tab raw;
     * other characters XML 1.0 cannot carry (C0 controls, U+FFFE, U+FFFF) as numeric references such as
     * {@code &#x1;}. XML 1.0 forbids those references too, so a strict parser rejects such a document; this
     * only reproduces .NET's bytes.
     */
    public static String xmlText(String text) {
        return replacing(text, c -> {
            if (c == '&') {
                return "&amp;";
            } else if (c == '<') {
                return "&lt;";
            } else if (c == '>') {
                return "&gt;";
            } else if (c < 0x20 && c != '\t' && c != '\n' && c != '\r' || c == 0xFFFE || c == 0xFFFF) {
                return "&#x" + Integer.toHexString(c).toUpperCase(Locale.ROOT) + ';';
            }
            return null;
        });
    }

    /**
     * Escapes an XML attribute value in double quotes as XmlTextWriter does: {@link #xmlText} plus {@code "},
     * and CR and LF as character references (as {@code MetadataEscaping.markup} does, so the namespace reads
     * the same in responses and metadata); tab stays raw.
     */
    public static String xmlAttribute(String text) {
        return xmlText(text).replace("\"", "&quot;").replace("\r", "&#xD;").replace("\n", "&#xA;");
    }

    /**
     * HTML-encodes as .NET 4's {@code HttpUtility.HtmlEncode}: {@code < > " & '} as entities, and
     * characters U+00A0 to U+00FF as decimal references.
     */
    public static String html(String text) {
        return replacing(text, c -> switch (c) {
            case '<' -> "&lt;";
            case '>' -> "&gt;";
            case '"' -> "&quot;";
            case '&' -> "&amp;";
            case '\'' -> "&#39;";
            default -> c >= 0xA0 && c <= 0xFF ? "&#" + (int) c + ';' : null;
        });
    }

    /** What a char is escaped as, or {@code null} to keep it. */
    @FunctionalInterface
    public interface Replacement {
        String of(char c);
    }

    /**
     * {@code text} with each char the {@code replacement} names replaced: the one loop every escaping of the codec
     * runs (a text that needs none is returned as it is, without a copy).
     */
    public static String replacing(String text, Replacement replacement) {
        StringBuilder out = null;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            String replaced = replacement.of(c);
            if (replaced != null && out == null) {
                out = new StringBuilder(text.length() + 16).append(text, 0, i);
            }
            if (out != null) {
                if (replaced != null) {
                    out.append(replaced);
                } else {
                    out.append(c);
                }
            }
        }
        return out == null ? text : out.toString();
    }
}
