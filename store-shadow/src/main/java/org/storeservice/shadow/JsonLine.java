package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.HexFormat;
import java.util.List;

/**
 * One JSON object, written field by field, for the proxy's JSON Lines files. A string is escaped so that any Java
 * string makes valid JSON: quotes, backslashes, control characters, U+2028/U+2029 and unpaired surrogates as
 * {@code \}{@code uXXXX}; other characters as they are (the file is UTF-8). Not thread-safe.
 */
final class JsonLine {
    private final StringBuilder out = new StringBuilder(256).append('{');
    private boolean first = true;

    JsonLine field(String name, String value) {
        name(name);
        if (value == null) {
            out.append("null");
        } else {
            quote(out, value);
        }
        return this;
    }

    JsonLine field(String name, long value) {
        name(name);
        out.append(value);
        return this;
    }

    JsonLine field(String name, boolean value) {
        name(name);
        out.append(value);
        return this;
    }

    JsonLine field(String name, JsonLine object) {
        name(name);
        out.append(object.end());
        return this;
    }

    JsonLine field(String name, List<String> values) {
        name(name);
        out.append('[');
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            quote(out, values.get(i));
        }
        out.append(']');
        return this;
    }

    /**
     * {@code value} as the field {@code name}, its first {@code maxChars} characters only when it is longer, and then
     * also {@code nameLength} (its length in chars) and {@code nameSha256} (of its UTF-8 bytes), so that a cut value can
     * still be told from another.
     */
    JsonLine cutField(String name, String value, int maxChars) {
        if (value == null || value.length() <= maxChars) {
            return field(name, value);
        }
        int end = Character.isHighSurrogate(value.charAt(maxChars - 1)) ? maxChars - 1 : maxChars;
        field(name, value.substring(0, end));
        field(name + "Length", value.length());
        return field(name + "Sha256", HexFormat.of().formatHex(AnswerCopy.sha256Of(value.getBytes(UTF_8))));
    }

    /** The object, closed. */
    String end() {
        return out + "}";
    }

    private void name(String name) {
        if (!first) {
            out.append(',');
        }
        first = false;
        quote(out, name);
        out.append(':');
    }

    static void quote(StringBuilder out, String value) {
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    boolean pairedHigh = Character.isHighSurrogate(c) && i + 1 < value.length()
                            && Character.isLowSurrogate(value.charAt(i + 1));
                    if (pairedHigh) {
                        out.append(c).append(value.charAt(++i));
                    } else if (c < 0x20 || c == '\u2028' || c == '\u2029' || Character.isSurrogate(c)) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
