package org.storeservice.examples.server;

import java.io.IOException;
import java.io.PrintStream;
import java.util.List;
import java.util.Set;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;

/**
 * What the operators' subcommands share: {@code --storage URI} and {@code --help}, opening the storage and
 * always closing it, and turning failures into a message on standard error and exit status 1. A storage
 * URI that no backend opens is a usage error (status 2), as for the server.
 */
abstract class StorageCommand implements Command {
    private final String name;
    private final Set<String> ownOptions;
    private final int positionalCount;
    private final PrintStream out;
    /** Standard error: messages for the operator, never data. */
    protected final PrintStream err;

    /**
     * @param name the command's name, for messages
     * @param ownOptions its valued options besides {@code --storage}
     * @param positionalCount how many arguments it takes after the options
     * @param out where {@code --help} prints the usage
     */
    StorageCommand(String name, Set<String> ownOptions, int positionalCount, PrintStream out, PrintStream err) {
        this.name = name;
        this.ownOptions = ownOptions;
        this.positionalCount = positionalCount;
        this.out = out;
        this.err = err;
    }

    @Override
    public final int run(List<String> args) throws UsageException {
        ToolOptions options = ToolOptions.parse(args, ownOptions, positionalCount);
        if (options.help()) {
            out.print(usage());
            out.flush();
            return Main.EXIT_OK;
        }
        Storage storage;
        try {
            storage = Storages.open(options.storageUri());
        } catch (IllegalArgumentException e) {
            throw new UsageException(e.getMessage().replaceAll("\\R", " "));
        } catch (IOException | RuntimeException e) {
            return fail("could not open the storage: " + e.getMessage());
        }
        try (storage) {
            return run(storage, options);
        } catch (IOException e) {
            return fail(e.getMessage());
        }
    }

    /** Does the command's work on the open storage, which the caller closes; returns the exit status. */
    abstract int run(Storage storage, ToolOptions options) throws IOException;

    /** Prints {@code message} as this command's error on standard error; returns {@link Main#EXIT_FAILURE}. */
    final int fail(String message) {
        message(message);
        return Main.EXIT_FAILURE;
    }

    /** "1 entry", "2 entries". */
    static String entries(long count) {
        return count + (count == 1 ? " entry" : " entries");
    }

    /** Prints one line for the operator on standard error. */
    final void message(String message) {
        err.println("store-server " + name + ": " + message);
        err.flush();
    }
}
