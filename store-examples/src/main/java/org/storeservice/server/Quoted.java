package org.storeservice.server;

/**
 * A key as messages show it: in quotes, with control characters escaped so that it stays on one line, and
 * lone surrogates escaped, which standard error's UTF-8 would print as '?'.
 */
final class Quoted {
    private static final int MAX_CHARS = 200;

    private Quoted() {
    }

    static String of(String key) {
        StringBuilder quoted = new StringBuilder(Math.min(key.length(), MAX_CHARS) + 2).append('"');
        for (int i = 0; i < key.length() && i < MAX_CHARS; i++) {
            char c = key.charAt(i);
            boolean paired = Character.isHighSurrogate(c) && i + 1 < key.length() && Character.isLowSurrogate(key.charAt(i + 1))
                    || Character.isLowSurrogate(c) && i > 0 && Character.isHighSurrogate(key.charAt(i - 1));
            if (c < 0x20 || c == 0x7f || c == '"' || c == '\\' || Character.isSurrogate(c) && !paired) {
                quoted.append(String.format("\\u%04x", (int) c));
            } else {
                quoted.append(c);
            }
        }
        if (key.length() > MAX_CHARS) {
            quoted.append("...");
        }
        return quoted.append('"').toString();
    }
}
