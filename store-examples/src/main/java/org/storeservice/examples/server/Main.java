package org.storeservice.examples.server;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The {@code store-server} tool: {@code java -jar store-server.jar [command] [options]}. Without a command
 * (the first argument is an option, or there is none) it runs the server ({@link ServeCommand}).
 *
 * <p>A wrong command line gives a one-line error and the usage on standard error, and exit status 2.
 */
public final class Main {
    static final int EXIT_OK = 0;
    /** The command line was fine but the work failed (port taken, storage unreachable, ...). */
    static final int EXIT_FAILURE = 1;
    /** The command line was wrong. */
    static final int EXIT_USAGE = 2;

    private static final String DEFAULT_COMMAND = "serve";

    private final PrintStream err;
    private final Map<String, Command> commands = new LinkedHashMap<>();

    /**
     * @param out standard output: results only (the server's endpoint URL, help)
     * @param err standard error: usage errors
     * @param shutdownHooks registers a thread to run at JVM shutdown ({@code Runtime::addShutdownHook})
     */
    Main(PrintStream out, PrintStream err, Consumer<Thread> shutdownHooks) {
        this.err = err;
        commands.put(DEFAULT_COMMAND, new ServeCommand(out, shutdownHooks));
        // Operators' subcommands sharing --storage (get KEY, list, export, import) are registered here.
    }

    public static void main(String[] args) {
        int status = new Main(System.out, System.err, Runtime.getRuntime()::addShutdownHook).run(args);
        if (status != EXIT_OK) {
            System.exit(status);
        }
        // On success main just returns: the server's threads keep the JVM alive.
    }

    /** Runs the command {@code args} name; returns the exit status. */
    int run(String... args) {
        List<String> list = List.of(args);
        String name = DEFAULT_COMMAND;
        if (!list.isEmpty() && commands.containsKey(list.get(0))) {
            name = list.get(0);
            list = list.subList(1, list.size());
        }
        Command command = commands.get(name);
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
