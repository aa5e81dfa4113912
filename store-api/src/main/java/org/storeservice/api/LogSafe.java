package org.storeservice.api;

/** Renders caller-supplied text for a log line: bounded length, control characters escaped (no log forging). */
final class LogSafe {
    private static final int MAX_LOGGED_CHARS = 100;

    private LogSafe() {
    }

    static String key(String key) {
        int shown = Math.min(key.length(), MAX_LOGGED_CHARS);
        StringBuilder out = new StringBuilder(shown + 16).append('\'');
        for (int i = 0; i < shown; i++) {
            char c = key.charAt(i);
            if (c < 0x20 || c == 0x7f || c == '\'' || c == '\\') {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('\'');
        if (key.length() > shown) {
            out.append("(+").append(key.length() - shown).append(" chars)");
        }
        return out.toString();
    }
}
