package org.storeservice.api;

/** Renders caller-supplied text for a log line: bounded length, control characters escaped (no log forging). */
final class LogSafe {
    private static final int MAX_LOGGED_CHARS = 100;
    /** Messages (of exceptions, of a backend) are longer than keys but still bounded. */
    private static final int MAX_TEXT_CHARS = 1000;

    private LogSafe() {
    }

    /** The key in quotes, at most 100 characters of it. */
    static String key(String key) {
        return escaped(key, MAX_LOGGED_CHARS, true);
    }

    /** Other text that may carry a caller's input (an exception's message): at most 1,000 characters, no quotes. */
    static String text(String text) {
        return escaped(text, MAX_TEXT_CHARS, false);
    }

    private static String escaped(String text, int max, boolean quoted) {
        int shown = Math.min(text.length(), max);
        StringBuilder out = new StringBuilder(shown + 16);
        if (quoted) {
            out.append('\'');
        }
        for (int i = 0; i < shown; i++) {
            char c = text.charAt(i);
            if (c < 0x20 || c == 0x7f || (quoted && (c == '\'' || c == '\\'))) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        if (quoted) {
            out.append('\'');
        }
        if (text.length() > shown) {
            out.append("(+").append(text.length() - shown).append(" chars)");
        }
        return out.toString();
    }
}
