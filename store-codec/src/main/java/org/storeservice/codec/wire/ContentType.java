package org.storeservice.codec.wire;

import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.UnsupportedCharsetException;
import java.util.Locale;

/** Reads a Content-Type header the way ASMX's {@code ContentType} helper does (Scalars.cs). */
public final class ContentType {
    private ContentType() {
    }

    /** The media type before the first {@code ';'}, trimmed and lower case; empty for {@code null}. */
    public static String base(String contentType) {
        if (contentType == null) {
            return "";
        }
        int semicolon = contentType.indexOf(';');
        String base = semicolon >= 0 ? contentType.substring(0, semicolon) : contentType;
        return base.trim().toLowerCase(Locale.ROOT);
    }

    /**
     * The value of parameter {@code name}, or {@code null}: as ASMX, the name matches case-insensitively as a
     * prefix, and the text after the first {@code '='} is trimmed of spaces, tabs and both kinds of quotes.
     */
    public static String parameter(String contentType, String name) {
        if (contentType == null) {
            return null;
        }
        String[] declarations = contentType.split(";", -1);
        for (int i = 1; i < declarations.length; i++) {
            String declaration = declarations[i].stripLeading();
            if (declaration.regionMatches(true, 0, name, 0, name.length())) {
                int equals = declaration.indexOf('=', name.length());
                if (equals >= 0) {
                    return trimQuotesAndBlanks(declaration.substring(equals + 1));
                }
            }
        }
        return null;
    }

    /** The charset named by the Content-Type, or {@code null} if none is named or it is unknown here. */
    public static Charset charset(String contentType) {
        String name = parameter(contentType, "charset");
        if (name == null || name.isEmpty()) {
            return null;
        }
        try {
            return Charset.forName(name);
        } catch (IllegalCharsetNameException | UnsupportedCharsetException e) {
            return null;
        }
    }

    private static String trimQuotesAndBlanks(String value) {
        int start = 0;
        int end = value.length();
        while (start < end && isTrimmed(value.charAt(start))) {
            start++;
        }
        while (end > start && isTrimmed(value.charAt(end - 1))) {
            end--;
        }
        return value.substring(start, end);
    }

    private static boolean isTrimmed(char c) {
        return c == ' ' || c == '\t' || c == '\'' || c == '"';
    }
}
