package org.storeservice.server;

import java.io.PrintWriter;
import java.net.URI;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.storeservice.shadow.HostNormaliser;

/**
 * The report {@code compare} prints: a header saying what is compared, one line a case as it is answered
 * ({@code MATCH} or {@code DIFF} and the case's name), then each difference in detail, then {@code N cases, M differ}.
 */
final class CompareReport {
    private final PrintWriter out;
    private final Map<String, List<String>> differing = new LinkedHashMap<>();
    private int cases;

    CompareReport(PrintWriter out) {
        this.out = out;
    }

    void header(URI oldEndpoint, URI newEndpoint) {
        out.println("old: " + oldEndpoint);
        out.println("new: " + newEndpoint);
        out.println("compared: status code (not the reason phrase, which the JDK HTTP client does not expose), "
                + String.join(", ", ResponseDiffer.HEADERS) + ", body byte for byte; each URL's host (and port) is "
                + HostNormaliser.PLACEHOLDER + " in bodies and location headers; not reported: an empty 400 or 415 against"
                + " a fault, and two 405 or 500 HTML pages with the same title (documented choices)");
        out.flush();
    }

    void result(CompareCase request, List<String> differences) {
        cases++;
        if (differences.isEmpty()) {
            out.println("MATCH " + request.name());
        } else {
            out.println("DIFF  " + request.name());
            differing.put(request.name(), new ArrayList<>(differences));
        }
        out.flush();
    }

    /** Prints the details and the summary line. */
    void finish() {
        for (Map.Entry<String, List<String>> entry : differing.entrySet()) {
            out.println();
            out.println("DIFF " + entry.getKey());
            entry.getValue().forEach(line -> out.println("  " + line));
        }
        if (!differing.isEmpty()) {
            out.println();
        }
        out.println(cases + " cases, " + differing.size() + " differ");
        out.flush();
    }

    boolean allMatch() {
        return differing.isEmpty();
    }
}
