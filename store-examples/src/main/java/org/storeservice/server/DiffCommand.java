package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code diff A B}: whether two stores hold the same entries, each side a storage URI or an export file. Both are read
 * in key order and merged in one pass ({@link DiffSide}), so memory stays bounded on any number of entries; values are
 * compared by type, length and SHA-256 ({@link EntryDigest}), never by the written time.
 */
@Command(name = "diff", mixinStandardHelpOptions = true, versionProvider = ServerVersion.class, showDefaultValues = true,
        header = "Compare two stores' entries: keys only in A, only in B, and with different values.",
        sortOptions = false,
        description = {"Compares the entries of A and B, each a storage URI (sqlite:FILE, jdbc:postgresql:..., files:DIR)"
                + " or an export file (- for standard input) in key order, as export writes it. Entries are compared by"
                + " key, type and value, not by the time they were written. Prints a line for each key only in A, only"
                + " in B, or with different values (the first --show of each kind, or --all), then the three counts.",
                "Exits with status 0 if both hold the same entries, 1 if not, 2 if a side cannot be read (an export"
                + " out of key order included) or the command line is wrong."})
final class DiffCommand implements Callable<Integer> {
    /** Status for a side that cannot be read, as diff(1): neither "equal" nor "different" can be said. */
    static final int EXIT_TROUBLE = 2;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "A", description = "A storage URI or an export file; - for standard input.")
    String a;

    @Parameters(index = "1", paramLabel = "B", description = "A storage URI or an export file; - for standard input.")
    String b;

    @Option(names = "--show", paramLabel = "N", defaultValue = "20", converter = ShadowCommand.Count.class,
            description = "List the first N keys of each kind (only in A, only in B, different values); the counts"
                    + " are always whole. Never read from the environment.")
    int show;

    @Option(names = "--all", description = "List every key that differs, however many (to re-sync them)."
            + " Never read from the environment.")
    boolean all;

    private final ToolContext context;

    DiffCommand(ToolContext context) {
        this.context = context;
    }

    @Override
    public Integer call() {
        if (a.equals("-") && b.equals("-")) {
            throw new ParameterException(spec.commandLine(), "A and B cannot both be standard input (-)");
        }
        PrintStream out = new PrintStream(new BufferedOutputStream(context.out(), 1 << 16), false, UTF_8); // never closed
        try (DiffSide left = open(a); DiffSide right = open(b)) {
            DiffReport report = new DiffReport(out, all ? Long.MAX_VALUE : show);
            out.println("A: " + left.name);
            out.println("B: " + right.name);
            merge(left, right, report);
            report.finish();
            out.flush();
            return report.equal() ? Main.EXIT_OK : Main.EXIT_FAILURE;
        } catch (IllegalArgumentException e) {
            // A URI no backend takes: a usage error, as for every command.
            throw new ParameterException(spec.commandLine(), e.getMessage().replaceAll("\\R", " "), e);
        } catch (IOException | RuntimeException e) {
            out.flush();
            context.err().println("store-server diff: " + Failures.describe(e));
            context.err().flush();
            LoggerFactory.getLogger(DiffCommand.class).debug("diff failed", e);
            return EXIT_TROUBLE;
        }
    }

    private DiffSide open(String argument) throws IOException {
        return DiffSide.open(argument, context.in());
    }

    /** The one pass: both sides in ascending key order, the smaller key first. */
    private static void merge(DiffSide left, DiffSide right, DiffReport report) throws IOException {
        EntryDigest x = left.next();
        EntryDigest y = right.next();
        while (x != null || y != null) {
            int order = x == null ? 1 : y == null ? -1 : x.key().compareTo(y.key());
            if (order < 0) {
                report.onlyInA(x);
                x = left.next();
            } else if (order > 0) {
                report.onlyInB(y);
                y = right.next();
            } else {
                report.both(x, y);
                x = left.next();
                y = right.next();
            }
        }
    }
}
