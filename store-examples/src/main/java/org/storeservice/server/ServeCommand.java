package org.storeservice.examples.server;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.jetty.StoreServer;

/**
 * Starts the server, prints its endpoint URL as the one line on standard output, and leaves it running;
 * a shutdown hook stops it gracefully on SIGTERM or Ctrl-C.
 */
final class ServeCommand implements Command {
    private static final Logger log = LoggerFactory.getLogger(ServeCommand.class);

    private final PrintStream out;
    private final Consumer<Thread> shutdownHooks;

    /**
     * @param out where the endpoint URL is printed (and {@code --help})
     * @param shutdownHooks registers a thread to run when the JVM shuts down
     */
    ServeCommand(PrintStream out, Consumer<Thread> shutdownHooks) {
        this.out = out;
        this.shutdownHooks = shutdownHooks;
    }

    @Override
    public int run(List<String> args) throws UsageException {
        ServerOptions options = ServerOptions.parse(args);
        if (options.help()) {
            out.print(usage());
            out.flush();
            return Main.EXIT_OK;
        }
        StoreServer server;
        try {
            server = options.serverBuilder().build().start();
        } catch (IllegalArgumentException e) {
            // A value the parser could not judge alone: an unknown storage scheme, a malformed namespace.
            throw new UsageException(e.getMessage().replaceAll("\\R", " "));
        } catch (IOException | RuntimeException e) {
            // Not a usage error: the options were well-formed, but the port, address or storage refused.
            log.error("Could not start the server: {}", e.toString());
            log.debug("Start failure", e);
            return Main.EXIT_FAILURE;
        }
        shutdownHooks.accept(new Thread(server::stop, "store-server-shutdown"));
        // The one line on standard output: scripts and tests read the URL from it.
        out.println(server.endpointUri());
        out.flush();
        // Jetty's threads are not daemons: the JVM keeps serving after main returns, until the hook stops it.
        return Main.EXIT_OK;
    }

    @Override
    public boolean keepsRunning() {
        return true;
    }

    @Override
    public String usage() {
        return ServerOptions.USAGE;
    }
}
