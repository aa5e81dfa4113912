package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.storeservice.jetty.StoreServer;
import org.storeservice.shadow.ShadowProxy;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The {@code store-server} tool: {@code java -jar store-server.jar [command] [options]}. Without a command it runs
 * the server ({@link ServeCommand}); the operators' subcommands {@code get}, {@code list}, {@code export},
 * {@code import} and {@code delete} read or write the store named by the same {@code --storage} option,
 * {@code users add} writes the users file of Basic authentication, {@code shadow} runs a shadow proxy
 * ({@link ShadowCommand}) and {@code shadow-report} sums up its differences file. Every
 * option may also come from a {@code STORE_*} environment variable ({@link EnvironmentDefaults}).
 *
 * <p>Standard output carries data only (the endpoint URL, a value, keys, an export, help, the version); messages go
 * to standard error. A wrong command line gives a one-line error and a line pointing to {@code --help} on standard
 * error, and exit status 2.
 */
public final class Main {
    static final int EXIT_OK = 0;
    /** The command line was fine but the work failed (port taken, storage unreachable, key absent, ...). */
    static final int EXIT_FAILURE = 1;
    /** The command line was wrong. */
    static final int EXIT_USAGE = 2;

    static final String NAME = "java -jar store-server.jar";

    private final CommandLine commandLine;
    private final PrintWriter help;
    private final PrintWriter errors;
    private final AtomicReference<StoreServer> serving = new AtomicReference<>();
    private final AtomicReference<ShadowProxy> shadowing = new AtomicReference<>();

    Main(ToolContext context) {
        PrintStream text = new PrintStream(context.out(), false, UTF_8); // the URL; flushed by the command
        commandLine = new CommandLine(new ServeCommand(context, text, serving));
        commandLine.setCommandName(NAME);
        commandLine.getCommandSpec().usageMessage().header(new String[0]).description(
                "Serves the Store endpoint (SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST) until stopped with Ctrl-C or"
                        + " SIGTERM, then exits with status 0. Prints the endpoint URL on one line once it listens.",
                "Without a command it serves; COMMAND --help gives each command's usage.",
                "Every option can also be set by the environment variable its help names (the command line wins).");
        commandLine.addSubcommand("serve", new ServeCommand(context, text, serving));
        commandLine.addSubcommand("get", new GetCommand(context));
        commandLine.addSubcommand("list", new ListCommand(context));
        commandLine.addSubcommand("export", new ExportCommand(context));
        commandLine.addSubcommand("import", new ImportCommand(context));
        commandLine.addSubcommand("backup", new BackupCommand(context));
        commandLine.addSubcommand("delete", new DeleteCommand(context));
        commandLine.addSubcommand("compare", new CompareCommand(context));
        commandLine.addSubcommand("diff", new DiffCommand(context));
        commandLine.addSubcommand("shadow", new ShadowCommand(context, text, shadowing));
        commandLine.addSubcommand("shadow-report", new ShadowReportCommand(context));
        commandLine.addSubcommand("users", new CommandLine(new UsersCommand())
                .addSubcommand("add", new UsersCommand.Add(context)));
        // Set after the subcommands were added: these setters apply to the subcommands present.
        commandLine.setDefaultValueProvider(new EnvironmentDefaults(context.environment()));
        commandLine.setOverwrittenOptionsAllowed(true); // a repeated option's last value wins
        commandLine.setExpandAtFiles(false);            // "@name" is a key, not a file of arguments
        commandLine.setAllowSubcommandsAsOptionParameters(true); // --users-file users: a file named like a command
        help = new PrintWriter(new OutputStreamWriter(context.out(), UTF_8), true);
        errors = new PrintWriter(context.err(), true);
        commandLine.setOut(help);
        commandLine.setErr(errors);
        commandLine.setParameterExceptionHandler(Main::usageError);
        commandLine.setExecutionExceptionHandler((e, command, parsed) -> {
            command.getErr().println("store-server: " + Failures.describe(e));
            return EXIT_FAILURE;
        });
    }

    public static void main(String[] args) {
        declareReferenceSize();
        Main main = new Main(new ToolContext(System.in, new FileOutputStream(FileDescriptor.out), System.err,
                System.getenv(), Runtime.getRuntime()::addShutdownHook, Runtime.getRuntime()::halt,
                SqliteNativeLibrary::useCachedCopy, System.console() != null));
        int status = main.run(args);
        if (status != EXIT_OK || !main.serving()) {
            System.exit(status);
        }
        // The server started: main just returns, and the server's threads keep the JVM alive.
    }

    /**
     * Tells Jetty how many object references fill a cache line unless the command line already did: without it,
     * Jetty starts the JMX platform server just to ask whether oops are compressed, which costs about 150 ms of a
     * 0.5 s start (BENCHMARKS.md). Compressed oops (4-byte references) are on below a 32 GiB heap.
     */
    static void declareReferenceSize() {
        String property = "org.eclipse.jetty.util.referencesPerCacheLine";
        if (System.getProperty(property) == null) {
            boolean compressedOops = Runtime.getRuntime().maxMemory() < 32L * 1024 * 1024 * 1024;
            System.setProperty(property, compressedOops ? "16" : "8");
        }
    }

    /** Runs the command {@code args} name; returns the exit status. */
    int run(String... args) {
        int status = commandLine.execute(args);
        help.flush();
        errors.flush();
        return status;
    }

    /** Whether a server (or a shadow proxy) was started and is serving, so the process must not exit yet. */
    boolean serving() {
        return serving.get() != null || shadowing.get() != null;
    }

    /** The command line of {@code main}, for tests that look at its options. */
    CommandLine commandLine() {
        return commandLine;
    }

    /**
     * One line saying what is wrong (for an unknown command, naming the commands), then one line saying where the
     * usage is, on standard error: the usage itself (about a hundred lines) would scroll the error away.
     */
    private static int usageError(ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        PrintWriter err = command.getErr();
        List<String> closest;
        if (e instanceof UnmatchedArgumentException unmatched && command.getParent() == null
                && !unmatched.getUnmatched().isEmpty() && !unmatched.getUnmatched().get(0).startsWith("-")) {
            err.println("store-server: unknown command '" + unmatched.getUnmatched().get(0) + "'; the commands are "
                    + String.join(", ", List.copyOf(command.getSubcommands().keySet())));
        } else if (e instanceof UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()
                && !(closest = OptionSuggestions.closest(command.getCommandSpec(), unmatched.getUnmatched().get(0),
                        unmatched.getSuggestions())).isEmpty()) {
            err.println("store-server: " + e.getMessage().replaceAll("\\R", " ") + "; did you mean "
                    + String.join(" or ", closest) + "?");
        } else {
            err.println("store-server: " + e.getMessage().replaceAll("\\R", " "));
        }
        err.println("Try '" + command.getCommandSpec().qualifiedName() + " --help' for more information.");
        err.flush();
        return EXIT_USAGE;
    }
}
