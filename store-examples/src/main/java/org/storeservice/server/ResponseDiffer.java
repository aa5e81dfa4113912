package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import org.storeservice.server.CaseExchange.Answer;
import org.storeservice.shadow.ComparisonRules;
import org.storeservice.shadow.HostNormaliser;
import org.storeservice.shadow.VisibleText;

/**
 * Compares the old and the new endpoint's answers to one case by {@link ComparisonRules}, as the shadow proxy does: the
 * status code, the {@link #HEADERS} and the body byte for byte, after each endpoint's own host is replaced by a
 * placeholder in the body and the location headers; a documented choice (an empty 400 against a fault, two error pages
 * with one title) is not a difference.
 * Says how they differ in lines for the report: empty when they match.
 */
final class ResponseDiffer {
    /** The response headers compared, the only ones: what a client acts on (the shadow proxy compares the same). */
    static final List<String> HEADERS = ComparisonRules.HEADERS;
    /** The headers that may name the host, normalised like the body. */
    private static final Set<String> LOCATION_HEADERS = Set.of("Location", "Content-Location");
    private static final int CONTEXT_LINES = 2;
    private static final int MAX_CHANGED_LINES = 6;
    private static final int MAX_LINE_CHARS = 200;
    /** How far apart, in lines, the texts are searched for where they agree again. */
    private static final int MAX_RESYNC_LINES = 200;

    private final HostNormaliser oldHost;
    private final HostNormaliser newHost;

    ResponseDiffer(HostNormaliser oldHost, HostNormaliser newHost) {
        this.oldHost = oldHost;
        this.newHost = newHost;
    }

    List<String> differences(Answer old, Answer updated) {
        List<String> lines = new ArrayList<>();
        if (old.failure() != null || updated.failure() != null) {
            lines.add("answer: old " + (old.failure() == null ? "status " + old.status() : old.failure())
                    + "; new " + (updated.failure() == null ? "status " + updated.status() : updated.failure()));
            return lines;
        }
        if (old.status() != updated.status()) {
            lines.add("status: old " + old.status() + ", new " + updated.status());
        }
        byte[] oldBody = oldHost.normalise(old.body());
        byte[] newBody = newHost.normalise(updated.body());
        // Where Store answers differently from ASMX on purpose (docs/wire-compatibility.md), the body and its type.
        boolean documented = old.status() == updated.status() && ComparisonRules.documentedChoice(old.status(),
                first(old, "Content-Type"), oldBody, first(updated, "Content-Type"), newBody) != null;
        for (String name : HEADERS) {
            if (documented && name.equals("Content-Type")) {
                continue;
            }
            String oldValue = header(old, name, oldHost);
            String newValue = header(updated, name, newHost);
            if (!oldValue.equals(newValue)) {
                lines.add(name + ": old " + oldValue + ", new " + newValue);
            }
        }
        if (!documented && !Arrays.equals(oldBody, newBody)) {
            String oldText = text(oldBody);
            String newText = text(newBody);
            if (oldText != null && newText != null) {
                lines.addAll(textDiff(oldText, newText));
            } else {
                lines.add(byteDiff(oldBody, newBody));
            }
        }
        return lines;
    }

    private static String first(Answer answer, String name) {
        List<String> values = answer.header(name);
        return values.isEmpty() ? null : values.get(0);
    }

    private static String header(Answer answer, String name, HostNormaliser host) {
        List<String> values = answer.header(name);
        if (values.isEmpty()) {
            return "(none)";
        }
        String value = String.join(", ", values);
        return "\"" + (LOCATION_HEADERS.contains(name) ? host.normalise(value) : value) + "\"";
    }

    /** The body as text if it is UTF-8 without control characters other than tab, CR and LF; else {@code null}. */
    private static String text(byte[] body) {
        String text;
        try {
            text = UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(body)).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
        return text.chars().anyMatch(c -> c < 0x20 && c != '\t' && c != '\r' && c != '\n') ? null : text;
    }

    /**
     * A unified diff of the first differing lines, with context: lines split at LF, a CR shown as {@code \r}; the
     * first changed line shown from a little before its first differing column, as SOAP bodies are one long line.
     */
    static List<String> textDiff(String old, String updated) {
        String[] a = old.split("\n", -1);
        String[] b = updated.split("\n", -1);
        int prefix = 0;
        while (prefix < a.length && prefix < b.length && a[prefix].equals(b[prefix])) {
            prefix++;
        }
        int[] resync = resync(a, b, prefix);
        int aEnd = resync[0];
        int bEnd = resync[1];
        int from = Math.max(0, prefix - CONTEXT_LINES);
        int to = Math.min(a.length, aEnd + CONTEXT_LINES);
        int column = prefix < a.length && prefix < b.length ? firstDifference(a[prefix], b[prefix]) : 0;
        int start = Math.max(0, column - 40);

        List<String> lines = new ArrayList<>();
        lines.add("body differs from line " + (prefix + 1) + (column > 0 ? ", column " + (column + 1) : "")
                + " (old " + old.length() + " chars, new " + updated.length() + " chars):");
        lines.add("@@ -" + (from + 1) + "," + (to - from) + " +" + (from + 1) + "," + (to - aEnd + bEnd - from) + " @@");
        for (int i = from; i < prefix; i++) {
            lines.add(" " + shown(a[i], 0));
        }
        changed(lines, '-', a, prefix, aEnd, start);
        changed(lines, '+', b, prefix, bEnd, start);
        for (int i = aEnd; i < to; i++) {
            lines.add(" " + shown(a[i], 0));
        }
        if (!Arrays.equals(a, aEnd, a.length, b, bEnd, b.length)) {
            lines.add("(more differences further on; only the first is shown)");
        }
        return lines;
    }

    /**
     * Where the texts agree again after the lines differing from {@code prefix}: the nearest line pair (fewest lines
     * skipped) from which {@link #CONTEXT_LINES} + 1 lines, or all that are left, are equal; the ends if none is near.
     */
    private static int[] resync(String[] a, String[] b, int prefix) {
        for (int skipped = 1; skipped <= MAX_RESYNC_LINES; skipped++) {
            for (int i = prefix; i <= prefix + skipped; i++) {
                int j = prefix + skipped - (i - prefix);
                if (i <= a.length && j <= b.length && agree(a, i, b, j)) {
                    return new int[] {i, j};
                }
            }
        }
        return new int[] {a.length, b.length};
    }

    private static boolean agree(String[] a, int i, String[] b, int j) {
        int n = CONTEXT_LINES + 1;
        if (a.length - i < n || b.length - j < n) {
            return Arrays.equals(a, i, a.length, b, j, b.length);
        }
        return Arrays.equals(a, i, i + n, b, j, j + n);
    }

    private static void changed(List<String> lines, char sign, String[] text, int from, int to, int start) {
        for (int i = from; i < Math.min(to, from + MAX_CHANGED_LINES); i++) {
            lines.add(sign + shown(text[i], i == from ? start : 0));
        }
        if (to - from > MAX_CHANGED_LINES) {
            lines.add(sign + "... (" + (to - from - MAX_CHANGED_LINES) + " more lines)");
        }
    }

    /** {@code line} from {@code start}, at most {@link #MAX_LINE_CHARS} of it, CR made visible as the proxy shows it. */
    private static String shown(String line, int start) {
        int from = Math.min(start, line.length());
        int to = Math.min(line.length(), from + MAX_LINE_CHARS);
        return (from > 0 ? "..." : "") + VisibleText.of(line.substring(from, to)) + (to < line.length() ? "..." : "");
    }

    private static int firstDifference(String a, String b) {
        int i = 0;
        while (i < a.length() && i < b.length() && a.charAt(i) == b.charAt(i)) {
            i++;
        }
        return i;
    }

    static String byteDiff(byte[] a, byte[] b) {
        int offset = Arrays.mismatch(a, b);
        return "body differs at byte offset " + offset + " (old " + a.length + " bytes, new " + b.length + " bytes):"
                + " old " + hex(a, offset) + ", new " + hex(b, offset);
    }

    private static String hex(byte[] bytes, int offset) {
        if (offset >= bytes.length) {
            return "(ends)";
        }
        int to = Math.min(bytes.length, offset + 16);
        return HexFormat.ofDelimiter(" ").formatHex(bytes, offset, to) + (to < bytes.length ? " ..." : "");
    }
}
