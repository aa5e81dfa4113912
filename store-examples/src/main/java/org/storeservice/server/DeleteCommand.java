package org.storeservice.server;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.storeservice.api.storage.Storage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code delete KEY} removes one entry (status 1 if there was none); {@code delete --prefix P --yes} removes every
 * entry whose key starts with P, and without {@code --yes} refuses (status 2) and deletes nothing. The keys under
 * the prefix are listed first (held in memory: keys only, never values), then deleted one by one, each deletion
 * atomic and durable on its own; a failure stops there, and running the same command again finishes the job.
 */
@Command(name = "delete", mixinStandardHelpOptions = true, versionProvider = ServerVersion.class, showDefaultValues = true,
        header = "Delete the entry under KEY, or every entry under a prefix.",
        description = {"Deletes the entry under KEY (status 1 if there is none), or with --prefix P --yes every entry"
                + " whose key starts with P (an empty P: all of them).",
                "A KEY that starts with - goes after --: delete -- --odd-key"})
final class DeleteCommand extends StorageCommand {
    @Parameters(paramLabel = "KEY", arity = "0..1", description = "The key to delete.")
    String key;

    @Option(names = "--prefix", paramLabel = "P",
            description = "Delete every key that starts with P instead of one KEY; needs --yes. Never read from the"
                    + " environment.")
    String prefix;

    @Option(names = "--yes", description = "Confirms --prefix. Never read from the environment.")
    boolean yes;

    DeleteCommand(ToolContext context) {
        super(context);
    }

    @Override
    int run(Storage storage) throws IOException {
        try {
            return prefix == null ? deleteKey(storage) : deletePrefix(storage);
        } catch (UnsupportedOperationException e) {
            return fail("this storage cannot delete entries (" + e.getMessage() + ")");
        }
    }

    /** Checked before the storage is opened: a wrong command line never touches the store. */
    @Override
    void checkArguments() {
        if (prefix == null && key == null) {
            throw new ParameterException(spec.commandLine(), "give a KEY, or --prefix P --yes");
        }
        if (prefix != null && key != null) {
            throw new ParameterException(spec.commandLine(), "give a KEY or --prefix, not both");
        }
        if (prefix != null && !yes) {
            throw new ParameterException(spec.commandLine(), "--prefix " + Quoted.of(prefix)
                    + " deletes every key that starts with it; nothing deleted: add --yes to confirm");
        }
    }

    private int deleteKey(Storage storage) throws IOException {
        if (!storage.delete(key)) {
            return fail("no entry under the key " + Quoted.of(key));
        }
        message("deleted 1 entry");
        return Main.EXIT_OK;
    }

    private int deletePrefix(Storage storage) throws IOException {
        List<String> keys = new ArrayList<>();
        storage.scan(prefix, entry -> keys.add(entry.key()));
        long deleted = 0;
        for (String k : keys) {
            try {
                if (storage.delete(k)) {
                    deleted++;
                }
            } catch (IOException e) {
                return fail("could not delete the key " + Quoted.of(k) + ": " + e.getMessage() + " (after deleting "
                        + entries(deleted) + "; running the same command again deletes the rest)");
            }
        }
        message("deleted " + entries(deleted));
        return Main.EXIT_OK;
    }
}
