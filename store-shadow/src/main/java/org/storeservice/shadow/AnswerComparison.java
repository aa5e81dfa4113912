package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.storeservice.shadow.ComparisonRules.DocumentedChoice;

/**
 * Compares the primary's and the shadow's answers to one request by {@link ComparisonRules}: says how they differ, one
 * {@link Difference} for each thing that differs (a cause to group by, a detail to read); empty when they match. A
 * body difference is named by what it is where that can be told: only the line ends, only a fault's text, or, for a
 * write (one the proxy read, or any request either answer of which carries Success or Error), its outcome (Success on
 * one side, not on the other), which no accept rule hides. A body longer than the proxy keeps is compared by its
 * length and SHA-256 as sent (no host normalised). Immutable and thread-safe.
 */
final class AnswerComparison {
    private static final int EXCERPT_BEFORE = 16;
    private static final int EXCERPT_AFTER = 24;
    /** A write's result in either binding's answer: {@code <WriteStringResult>Success</...>}, {@code <Status ...>Error<}. */
    private static final Pattern RESULT = Pattern.compile(">(Success|Error)</");
    /** The text of a SOAP 1.1 or 1.2 fault: its faultstring, Reason Text or detail. */
    private static final Pattern FAULT_TEXT = Pattern.compile(
            "(<(?:[A-Za-z0-9_.-]+:)?(faultstring|Text|detail)\\b[^>]*>)(.*?)(</(?:[A-Za-z0-9_.-]+:)?\\2>)", Pattern.DOTALL);
    private final HostNormaliser primaryHost;
    private final HostNormaliser shadowHost;

    AnswerComparison(URI primary, URI shadow) {
        this.primaryHost = new HostNormaliser(primary);
        this.shadowHost = new HostNormaliser(shadow);
    }

    /**
     * @param write whether the proxy read the request as a write: then an answer with another outcome is a difference
     *     of its own; so it is, whatever the request, when either answer carries a write's Success or Error
     */
    List<Difference> differences(Answer primary, Answer shadow, boolean write) {
        List<Difference> found = new ArrayList<>();
        if (primary.status() != shadow.status()) {
            String text = "status: primary " + primary.status() + ", shadow " + shadow.status();
            found.add(new Difference("status", text, text));
        }
        // The same bytes (as nearly always) need no normalising: each host's replacement could only make them differ.
        boolean sameBytes = primary.complete() && shadow.complete() && Arrays.equals(primary.body(), shadow.body());
        byte[] primaryBody = sameBytes ? primary.body() : primaryHost.normalise(primary.body());
        byte[] shadowBody = sameBytes ? shadow.body() : shadowHost.normalise(shadow.body());
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
                String text = name + ": primary " + shown(primaryValue) + ", shadow " + shown(shadowValue);
                found.add(new Difference("header:" + name, text, text));
            }
        }
        // Not only where the proxy read a key: a write its codec refused before the key (content after </Envelope>,
        // invalid UTF-8) may be answered Success by one service and a fault by the other, in any binding.
        boolean outcomesMayDiffer = !sameBytes || primary.status() != shadow.status();
        String primaryResult = outcomesMayDiffer ? result(primary) : null;
        String shadowResult = outcomesMayDiffer ? result(shadow) : null;
        boolean compareOutcomes = outcomesMayDiffer && (write || primaryResult != null || shadowResult != null);
        String primaryOutcome = compareOutcomes ? outcome(primary, primaryResult) : null;
        String shadowOutcome = compareOutcomes ? outcome(shadow, shadowResult) : null;
        if (!Objects.equals(primaryOutcome, shadowOutcome)) {
            found.add(new Difference(Difference.OUTCOME, "the write answered " + primaryOutcome + " by the primary, "
                    + shadowOutcome + " by the shadow", bodyDetail(primary, primaryBody, shadow, shadowBody)));
        } else if (choice == null) {
            Difference body = bodyDifference(primary, primaryBody, shadow, shadowBody);
            if (body != null) {
                found.add(body);
            }
        }
        return found;
    }

    private static Difference bodyDifference(Answer primary, byte[] primaryBody, Answer shadow, byte[] shadowBody) {
        if (primary.complete() && shadow.complete()) {
            if (Arrays.equals(primaryBody, shadowBody)) {
                return null;
            }
            String detail = bodyDetail(primary, primaryBody, shadow, shadowBody);
            String primaryText = new String(primaryBody, ISO_8859_1);
            String shadowText = new String(shadowBody, ISO_8859_1);
            if (primaryText.replace("\r\n", "\n").equals(shadowText.replace("\r\n", "\n"))) {
                return new Difference("line-endings", "body: line ends differ (primary " + lineEnds(primaryText)
                        + ", shadow " + lineEnds(shadowText) + ")", detail);
            }
            if (primaryText.contains("Fault>") && shadowText.contains("Fault>")
                    && withoutFaultText(primaryText).equals(withoutFaultText(shadowText))) {
                return new Difference("fault-text", "body: the fault's text differs", detail);
            }
            return new Difference("body", "body differs", detail);
        }
        if (primary.length() == shadow.length() && Arrays.equals(primary.sha256(), shadow.sha256())) {
            return null;
        }
        return new Difference("body", "body differs (compared by length and SHA-256)", "body differs (primary "
                + primary.length() + " bytes, SHA-256 " + HexFormat.of().formatHex(primary.sha256()) + "; shadow "
                + shadow.length() + " bytes, SHA-256 " + HexFormat.of().formatHex(shadow.sha256()) + ")");
    }

    private static String bodyDetail(Answer primary, byte[] primaryBody, Answer shadow, byte[] shadowBody) {
        if (!primary.complete() || !shadow.complete()) {
            return "body: primary " + primary.length() + " bytes, shadow " + shadow.length() + " bytes";
        }
        int at = Arrays.mismatch(primaryBody, shadowBody);
        if (at < 0) {
            return "bodies equal (hosts normalised)";
        }
        return "body differs at byte " + at + " (primary " + primary.length() + " bytes, shadow " + shadow.length()
                + " bytes, hosts normalised): primary " + excerpt(primaryBody, at) + ", shadow " + excerpt(shadowBody, at);
    }

    /** The Success or Error an answer carries as a write's result, or {@code null}. */
    private static String result(Answer answer) {
        Matcher result = RESULT.matcher(new String(answer.body(), ISO_8859_1));
        return result.find() ? result.group(1) : null;
    }

    /** A write's outcome as a client reads it: the status and Success, Error or neither (a fault, an error page). */
    private static String outcome(Answer answer, String result) {
        return answer.status() + " " + (result != null ? result : "without Success or Error");
    }

    private static String lineEnds(String text) {
        boolean crlf = text.contains("\r\n");
        boolean lf = text.replace("\r\n", "").contains("\n");
        return crlf && lf ? "CRLF and LF" : crlf ? "CRLF" : lf ? "LF" : "none";
    }

    private static String withoutFaultText(String text) {
        return FAULT_TEXT.matcher(text).replaceAll("$1$4");
    }

    /** The body from a little before {@code at}, as text, line ends and bytes outside UTF-8 made visible. */
    static String excerpt(byte[] body, int at) {
        int from = Math.max(0, at - EXCERPT_BEFORE);
        int to = Math.min(body.length, at + EXCERPT_AFTER);
        if (from >= to) {
            return "(ends)";
        }
        return (from > 0 ? "..." : "") + "\"" + VisibleText.of(body, from, to) + "\"" + (to < body.length ? "..." : "");
    }

    private static String header(Answer answer, String name, HostNormaliser host) {
        String value = answer.header(name);
        return value != null && ComparisonRules.isLocationHeader(name) ? host.normalise(value) : value;
    }

    private static String shown(String value) {
        return value == null ? "(none)" : "\"" + value + "\"";
    }
}
