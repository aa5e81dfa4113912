package org.storeservice.shadow;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import org.storeservice.shadow.ComparisonRules.DocumentedChoice;

/**
 * Compares the primary's and the shadow's answers to one request by {@link ComparisonRules}: says how they differ, in
 * short lines for the differences file; empty when they match. A body longer than the proxy keeps is compared by its
 * length and SHA-256 as sent (no host normalised). Immutable and thread-safe.
 */
final class AnswerComparison {
    private static final int EXCERPT_BEFORE = 16;
    private static final int EXCERPT_AFTER = 24;
    private final HostNormaliser primaryHost;
    private final HostNormaliser shadowHost;

    AnswerComparison(URI primary, URI shadow) {
        this.primaryHost = new HostNormaliser(primary);
        this.shadowHost = new HostNormaliser(shadow);
    }

    List<String> differences(Answer primary, Answer shadow) {
        List<String> lines = new ArrayList<>();
        if (primary.status() != shadow.status()) {
            lines.add("status: primary " + primary.status() + ", shadow " + shadow.status());
        }
        byte[] primaryBody = primaryHost.normalise(primary.body());
        byte[] shadowBody = shadowHost.normalise(shadow.body());
        DocumentedChoice choice = primary.status() != shadow.status() || !primary.complete() || !shadow.complete() ? null
                : ComparisonRules.documentedChoice(primary.status(), primary.header("Content-Type"), primaryBody,
                        shadow.header("Content-Type"), shadowBody);
        for (String name : ComparisonRules.HEADERS) {
            if (choice != null && name.equals("Content-Type")) {
                continue;
            }
            String primaryValue = header(primary, name, primaryHost);
            String shadowValue = header(shadow, name, shadowHost);
            if (!Objects.equals(primaryValue, shadowValue)) {
                lines.add(name + ": primary " + shown(primaryValue) + ", shadow " + shown(shadowValue));
            }
        }
        if (choice == null) {
            String body = bodyDifference(primary, primaryBody, shadow, shadowBody);
            if (body != null) {
                lines.add(body);
            }
        }
        return lines;
    }

    private static String bodyDifference(Answer primary, byte[] primaryBody, Answer shadow, byte[] shadowBody) {
        if (primary.complete() && shadow.complete()) {
            if (Arrays.equals(primaryBody, shadowBody)) {
                return null;
            }
            int at = Arrays.mismatch(primaryBody, shadowBody);
            return "body differs at byte " + at + " (primary " + primary.length() + " bytes, shadow " + shadow.length()
                    + " bytes, hosts normalised): primary " + excerpt(primaryBody, at) + ", shadow " + excerpt(shadowBody, at);
        }
        if (primary.length() == shadow.length() && Arrays.equals(primary.sha256(), shadow.sha256())) {
            return null;
        }
        return "body differs (primary " + primary.length() + " bytes, SHA-256 " + HexFormat.of().formatHex(primary.sha256())
                + "; shadow " + shadow.length() + " bytes, SHA-256 " + HexFormat.of().formatHex(shadow.sha256()) + ")";
    }

    /** The body from a little before {@code at}: as text where it is printable ASCII, else in hex. */
    static String excerpt(byte[] body, int at) {
        int from = Math.max(0, at - EXCERPT_BEFORE);
        int to = Math.min(body.length, at + EXCERPT_AFTER);
        if (from >= to) {
            return "(ends)";
        }
        boolean printable = true;
        for (int i = from; i < to; i++) {
            printable &= body[i] >= 0x20 && body[i] < 0x7F;
        }
        String shown = printable ? "\"" + new String(body, from, to - from, java.nio.charset.StandardCharsets.US_ASCII) + "\""
                : HexFormat.of().formatHex(body, from, to);
        return (from > 0 ? "..." : "") + shown + (to < body.length ? "..." : "");
    }

    private static String header(Answer answer, String name, HostNormaliser host) {
        String value = answer.header(name);
        return value != null && ComparisonRules.isLocationHeader(name) ? host.normalise(value) : value;
    }

    private static String shown(String value) {
        return value == null ? "(none)" : "\"" + value + "\"";
    }
}
