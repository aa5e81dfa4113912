package org.storeservice.examples.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The {@code store-server} tool: {@code java -jar store-server.jar [command] [options]}. Without a command
 * (the first argument is an option, or there is none) it runs the server ({@link ServeCommand}); the
 * operators' subcommands {@code get}, {@code list}, {@code export} and {@code import} read or write the
 * store named by the same {@code --storage} option.
 *
 * <p>Standard output carries data only (the endpoint URL, a value, keys, an export, help); messages go to
 * standard error. A wrong command line gives a one-line error and the usage on standard error, and exit
 * status 2.
 */
public final class Main {
    static final int EXIT_OK = 0;
    /** The command line was fine but the work failed (port taken, storage unreachable, key absent, ...). */
    static final int EXIT_FAILURE = 1;
    /** The command line was wrong. */
    static final int EXIT_USAGE = 2;

    private static final String DEFAULT_COMMAND = "serve";

    private final PrintStream err;
    private final Map<String, Command> commands = new LinkedHashMap<>();

    /**
     * @param in standard input: what {@code import} reads
     * @param out standard output: data only; written as bytes (a value, an export), so that a failed write
     *     (a closed pipe, a full disk) is an error, which a {@code PrintStream} would swallow
     * @param err standard error: messages and usage errors
     * @param shutdownHooks registers a thread to run at JVM shutdown ({@code Runtime::addShutdownHook})
     */
    Main(InputStream in, OutputStream out, PrintStream err, Consumer<Thread> shutdownHooks) {
        this.err = err;
        PrintStream text = new PrintStream(out, false, UTF_8); // for the URL and help; flushed by each command
        commands.put(DEFAULT_COMMAND, new ServeCommand(text, shutdownHooks));
        commands.put("get", new GetCommand(out, text, err));
        commands.put("list", new ListCommand(out, text, err));
        commands.put("export", new ExportCommand(out, text, err));
        commands.put("import", new ImportCommand(in, text, err));
    }

    public static void main(String[] args) {
        declareReferenceSize();
        SqliteNativeLibrary.useCachedCopy(List.of(args));
        Main main = new Main(System.in, new FileOutputStream(FileDescriptor.out), System.err,
                Runtime.getRuntime()::addShutdownHook);
        Command command = main.command(args);
        int status = main.run(command, args);
        if (status != EXIT_OK || !command.keepsRunning()) {
            System.exit(status);
        }
        // The server started: main just returns, and the server's threads keep the JVM alive.
    }

    /**
     * Tells Jetty how many object references fill a cache line unless the command line already did: without
     * it, Jetty starts the JMX platform server just to ask whether oops are compressed, which costs about
     * 150 ms of a 0.5 s start (BENCHMARKS.md). Compressed oops (4-byte references) are on below a 32 GiB heap.
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
        return run(command(args), args);
    }

    private Command command(String... args) {
        return args.length > 0 && commands.containsKey(args[0]) ? commands.get(args[0]) : commands.get(DEFAULT_COMMAND);
    }

    private int run(Command command, String... args) {
        List<String> list = List.of(args);
        if (!list.isEmpty() && commands.containsKey(list.get(0))) {
            list = list.subList(1, list.size());
        }
        try {
            return command.run(list);
        } catch (UsageException e) {
            err.println("store-server: " + e.getMessage());
            err.print(command.usage());
            err.flush();
            return EXIT_USAGE;
        }
    }
}
