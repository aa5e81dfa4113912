package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code shadow-report FILE}: the shadow proxy's differences file summed up for a person: one group per cause (the
 * request's binding and operation and what differs, without sizes or offsets), the most frequent first, each with its
 * count and one example; the differences the accept rules understood apart, after the others, with their reasons.
 * Memory grows with the number of causes, not of lines.
 */
@Command(name = "shadow-report", mixinStandardHelpOptions = true, versionProvider = ServerVersion.class,
        header = "Sum up a shadow proxy's differences file: one line per cause, with a count and an example.",
        description = {"Reads the differences file the shadow command writes (--differences), and prints the"
                + " differences grouped by cause: binding, operation and what differs, without sizes or offsets; the most"
                + " frequent first, each with one example (request, key and where the bodies differ). The differences"
                + " the accept rules (--accept) understood come after the others, with their rules' reasons.",
                "Exit status: 0 when every difference was accepted (or there are none), 1 when some are not, 2 when the"
                        + " file cannot be read or a line of it is not a difference line (then the report covers the"
                        + " others, and standard error says how many and which line first)."})
final class ShadowReportCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "FILE", description = "A differences file (JSON lines), or one rotated (FILE.1).")
    Path file;

    private final ToolContext context;

    ShadowReportCommand(ToolContext context) {
        this.context = context;
    }

    /** One difference line, the fields the report uses. */
    private static final class Line {
        String time = "";
        String binding = "";
        String operation = "";
        String request = "";
        String key;
        final List<String> causes = new ArrayList<>();
        final List<String> details = new ArrayList<>();
        List<String> accepted;
    }

    /** The lines of one cause: how many, and the first as the example. */
    private static final class Group {
        final Line example;
        long count;

        Group(Line example) {
            this.example = example;
        }
    }

    @Override
    public Integer call() throws IOException {
        Map<String, Group> differing = new LinkedHashMap<>();
        Map<String, Group> accepted = new LinkedHashMap<>();
        long unreadable = 0;
        long firstUnreadable = 0;
        long number = 0;
        BufferedReader opened;
        try {
            opened = Files.newBufferedReader(file, UTF_8);
        } catch (IOException e) {
            context.err().println("store-server shadow-report: " + Failures.describe(e));
            return Main.EXIT_USAGE;
        }
        try (BufferedReader lines = opened) {
            String text;
            while ((text = lines.readLine()) != null) {
                number++;
                if (text.isBlank()) {
                    continue;
                }
                Line line;
                try {
                    line = parse(text);
                } catch (IOException | RuntimeException e) {
                    if (unreadable++ == 0) {
                        firstUnreadable = number;
                    }
                    continue;
                }
                String cause = line.binding + " " + line.operation + ": " + String.join("; ", line.causes);
                (line.accepted == null ? differing : accepted).computeIfAbsent(cause, c -> new Group(line)).count++;
            }
        }
        PrintWriter out = new PrintWriter(new OutputStreamWriter(context.out(), UTF_8));
        long differingCount = print(out, "differing", differing);
        long acceptedCount = print(out, "accepted (understood, by the accept rules)", accepted);
        out.println(differingCount + " differing in " + differing.size() + (differing.size() == 1 ? " cause, " : " causes, ")
                + acceptedCount + " accepted in " + accepted.size() + (accepted.size() == 1 ? " cause" : " causes"));
        out.flush();
        if (unreadable > 0) {
            // Not read, so not known to be free of differences: another file given by mistake (the dropped keys).
            context.err().println("store-server shadow-report: " + file + ": " + (unreadable == 1
                    ? "1 line is not a difference line" : unreadable + " lines are not difference lines")
                    + " (the first: line " + firstUnreadable + "); is it the differences file (--differences)?");
            context.err().flush();
            return Main.EXIT_USAGE;
        }
        return differingCount == 0 ? Main.EXIT_OK : Main.EXIT_FAILURE;
    }

    private static long print(PrintWriter out, String title, Map<String, Group> groups) {
        if (groups.isEmpty()) {
            return 0;
        }
        List<Map.Entry<String, Group>> sorted = new ArrayList<>(groups.entrySet());
        sorted.sort(Comparator.comparingLong((Map.Entry<String, Group> e) -> e.getValue().count).reversed());
        long total = sorted.stream().mapToLong(e -> e.getValue().count).sum();
        out.println(title + ":");
        for (Map.Entry<String, Group> entry : sorted) {
            Line example = entry.getValue().example;
            out.printf("%8d  %s%n", entry.getValue().count, entry.getKey());
            if (example.accepted != null) {
                for (String reason : example.accepted) {
                    out.println("          because " + reason);
                }
            }
            out.println("          e.g. " + example.request + (example.key == null ? "" : " (key " + Quoted.of(example.key) + ")")
                    + " at " + example.time);
            for (String detail : example.details) {
                out.println("               " + detail);
            }
        }
        out.println();
        return total;
    }

    private static Line parse(String text) throws IOException {
        Line line = new Line();
        try (JsonParser parser = EntryLines.FACTORY.createParser(text)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw new IOException("not an object");
            }
            while (parser.nextToken() == JsonToken.FIELD_NAME) {
                String name = parser.currentName();
                JsonToken value = parser.nextToken();
                switch (name) {
                    case "time" -> line.time = parser.getValueAsString("");
                    case "binding" -> line.binding = parser.getValueAsString("");
                    case "operation" -> line.operation = parser.getValueAsString("");
                    case "request" -> line.request = parser.getValueAsString("");
                    case "key" -> line.key = value == JsonToken.VALUE_NULL ? null : parser.getValueAsString();
                    case "causes" -> strings(parser, line.causes);
                    case "differences" -> strings(parser, line.details);
                    case "accepted" -> strings(parser, line.accepted = new ArrayList<>());
                    default -> parser.skipChildren();
                }
            }
        }
        if (line.causes.isEmpty()) {
            throw new IOException("no causes: not a difference line of this version");
        }
        return line;
    }

    private static void strings(JsonParser parser, List<String> into) throws IOException {
        if (parser.currentToken() != JsonToken.START_ARRAY) {
            throw new IOException("not an array");
        }
        while (parser.nextToken() != JsonToken.END_ARRAY) {
            into.add(parser.getValueAsString(""));
        }
    }
}
