package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.storeservice.codec.Binding;

/**
 * The differences a team has understood, from an accept file ({@code --accept FILE}): a difference every part of which
 * a rule matches is counted {@code accepted}, not {@code differing}, and its line in the differences file says by which
 * rules and why. One rule a line:
 *
 * <pre>
 * # a comment; blank lines are skipped
 * BINDING  OPERATION  WHAT  REASON...
 * httpget  *         line-endings  Mono ends the XML declaration with LF where .NET and Store write CRLF
 * </pre>
 *
 * <p>{@code BINDING}: {@code soap11}, {@code soap12}, {@code httpget}, {@code httppost}, {@code metadata}, {@code none}
 * or {@code *}. {@code OPERATION}: {@code WriteString}, {@code WriteBytes}, {@code wsdl}, {@code disco}, {@code help},
 * {@code none} or {@code *}. {@code WHAT}: {@code status}, {@code header:NAME} (one of the compared headers),
 * {@code line-endings} (the bodies are equal once CRLF is read as LF), {@code fault-text} (two faults equal but for
 * their text) or {@code body} (any other body difference). {@code REASON}: the rest of the line, required. A write
 * answered Success by one service and otherwise by the other is never accepted, whatever the rules say. Immutable and
 * thread-safe.
 */
final class AcceptRules {
    private static final Set<String> BINDINGS = Set.of("soap11", "soap12", "httpget", "httppost", "metadata", "none", "*");
    private static final Set<String> OPERATIONS = Set.of("WriteString", "WriteBytes", "wsdl", "disco", "help", "none", "*");
    private static final Set<String> BODY_KINDS = Set.of("status", "line-endings", "fault-text", "body");

    /** One rule, and where it was read: {@code FILE:LINE}. */
    private record Rule(String binding, String operation, String kind, String reason, String where) {
        boolean matches(Binding requestBinding, String requestOperation, Difference difference) {
            return (binding.equals("*") || binding.equals(requestBinding.tag()))
                    && (operation.equals("*") || operation.equals(requestOperation))
                    && kind.equalsIgnoreCase(difference.kind());
        }
    }

    /** None: every difference is {@code differing}. */
    static final AcceptRules NONE = new AcceptRules(List.of());

    private final List<Rule> rules;

    private AcceptRules(List<Rule> rules) {
        this.rules = List.copyOf(rules);
    }

    /**
     * Reads {@code file}.
     *
     * @throws IllegalArgumentException naming the file and line of the first rule that is not one, and why
     * @throws IOException if it cannot be read
     */
    static AcceptRules read(Path file) throws IOException {
        return read(List.of(file));
    }

    /**
     * Reads {@code files}, in order: a difference takes the reason of the first rule matching it.
     *
     * @throws IllegalArgumentException naming the file and line of the first rule that is not one, and why
     * @throws IOException if one cannot be read
     */
    static AcceptRules read(List<Path> files) throws IOException {
        List<Rule> rules = new ArrayList<>();
        for (Path file : files) {
            readInto(file, rules);
        }
        return new AcceptRules(rules);
    }

    private static void readInto(Path file, List<Rule> rules) throws IOException {
        List<String> lines = Files.readAllLines(file, UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            String where = file + ":" + (i + 1);
            String[] fields = line.split("\\s+", 4);
            if (fields.length < 4) {
                throw new IllegalArgumentException(where + ": a rule is BINDING OPERATION WHAT REASON, the reason"
                        + " required: " + line);
            }
            if (!BINDINGS.contains(fields[0])) {
                throw new IllegalArgumentException(where + ": unknown binding " + fields[0] + " (one of " + sorted(BINDINGS)
                        + ")");
            }
            if (!OPERATIONS.contains(fields[1])) {
                throw new IllegalArgumentException(where + ": unknown operation " + fields[1] + " (one of "
                        + sorted(OPERATIONS) + ")");
            }
            String kind = fields[2];
            boolean header = kind.regionMatches(true, 0, "header:", 0, 7)
                    && ComparisonRules.HEADERS.stream().anyMatch(name -> name.equalsIgnoreCase(kind.substring(7)));
            if (!header && !BODY_KINDS.contains(kind)) {
                throw new IllegalArgumentException(where + ": unknown difference " + kind + " (one of status, header:NAME"
                        + " with NAME one of " + String.join(", ", ComparisonRules.HEADERS)
                        + ", line-endings, fault-text, body; a write's outcome is never accepted)");
            }
            rules.add(new Rule(fields[0], fields[1], kind, fields[3].strip(), where));
        }
    }

    private static String sorted(Set<String> names) {
        return String.join(", ", names.stream().sorted(String.CASE_INSENSITIVE_ORDER).toList());
    }

    /**
     * Why {@code differences} are understood: for each, the first rule matching it ({@code FILE:LINE: REASON}); or
     * {@code null} if any is matched by no rule, or is a write's outcome.
     */
    List<String> accepted(Classification request, List<Difference> differences) {
        if (rules.isEmpty()) {
            return null;
        }
        List<String> reasons = new ArrayList<>(differences.size());
        for (Difference difference : differences) {
            if (difference.kind().equals(Difference.OUTCOME)) {
                return null;
            }
            Rule match = null;
            for (Rule rule : rules) {
                if (rule.matches(request.binding(), request.operation(), difference)) {
                    match = rule;
                    break;
                }
            }
            if (match == null) {
                return null;
            }
            String reason = match.where() + ": " + match.reason();
            if (!reasons.contains(reason)) {
                reasons.add(reason);
            }
        }
        return reasons;
    }

    /** How many rules. */
    int size() {
        return rules.size();
    }

    @Override
    public String toString() {
        return rules.size() + " accept rules";
    }
}
