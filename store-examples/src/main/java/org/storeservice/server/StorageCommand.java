package org.storeservice.server;

import java.io.IOException;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * What the operators' subcommands share: {@code --storage URI} and {@code --log-level}, opening the storage and
 * always closing it, and turning failures into a message on standard error and exit status 1. A storage URI that no
 * backend opens is a usage error (status 2), as for the server. A command that only reads or deletes refuses a
 * storage that is not there rather than creating it ({@link ExistingStorage}).
 */
abstract class StorageCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    CommonOptions common;

    final ToolContext context;

    StorageCommand(ToolContext context) {
        this.context = context;
    }

    @Override
    public final Integer call() {
        common.applyLogLevel();
        checkArguments();
        if (!createsStorage()) {
            Optional<String> missing = ExistingStorage.missing(common.storageUri);
            if (missing.isPresent()) {
                return fail(missing.get() + "; " + spec.name() + " never creates one (is --storage right?)");
            }
        }
        context.beforeOpening().accept(common.storageUri);
        Storage storage;
        try {
            storage = Storages.open(common.storageUri);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage().replaceAll("\\R", " "), e);
        } catch (IOException | RuntimeException e) {
            return fail("could not open the storage: " + Failures.describe(e));
        }
        try (storage) {
            return run(storage);
        } catch (IOException e) {
            return fail(e.getMessage());
        }
    }

    /**
     * Checks what picocli cannot (how the arguments go together), before the storage is opened.
     *
     * @throws picocli.CommandLine.ParameterException if they are wrong
     */
    void checkArguments() {
    }

    /** Whether the command may create the storage it is given (import), or needs it to exist. */
    boolean createsStorage() {
        return false;
    }

    /** Does the command's work on the open storage, which the caller closes; returns the exit status. */
    abstract int run(Storage storage) throws IOException;

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
        context.err().println("store-server " + spec.name() + ": " + message);
        context.err().flush();
    }
}
