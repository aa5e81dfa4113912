package org.storeservice.server;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.Optional;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StoredEntry;
import picocli.CommandLine.Command;

/**
 * {@code import}: reads {@linkplain EntryLines JSON Lines} from standard input and writes each entry, in
 * order, as it is read (last write wins, {@link OverwritePolicy#REPLACE}), keeping its type.
 *
 * <p>Stops at the first line that is malformed or cannot be stored, naming it, with status 1. The entries
 * of the lines before it stay written: each write is atomic and durable on its own, and a storage has no
 * transaction across writes (PostgreSQL's autocommit, SQLite's group commit). Since a write replaces, running
 * the import again after fixing the line gives the same result as one clean run.
 *
 * <p>Writes go to the storage directly, not through a {@code Store}: the entries were accepted once already,
 * possibly under other limits. A line's {@code written} time is checked but not kept: a backend stamps each
 * write with the time it makes it.
 */
@Command(name = "import", mixinStandardHelpOptions = true, versionProvider = ServerVersion.class, showDefaultValues = true,
        header = "Write every entry read as JSON Lines from standard input.",
        description = {"Reads entries in export's JSON Lines format from standard input and writes each one, keeping its"
                + " type; an existing key is replaced. Stops with status 1 at the first malformed or unstorable line,"
                + " naming it; the entries before that line stay written, and importing again replaces them.",
                "From SQLite to PostgreSQL:",
                "  java -jar store-server.jar export --storage sqlite:data/store.db \\",
                "    | java -jar store-server.jar import --storage 'jdbc:postgresql://HOST/DB?user=U&password=P'"})
final class ImportCommand extends StorageCommand {
    ImportCommand(ToolContext context) {
        super(context);
    }

    /** The target of an import may be new: a move to PostgreSQL or to a new SQLite file creates it. */
    @Override
    boolean createsStorage() {
        return true;
    }

    @Override
    int run(Storage storage) throws IOException {
        EntryLineReader reader = new EntryLineReader(context.in());
        long imported = 0;
        try {
            for (Optional<StoredEntry> next = reader.next(); next.isPresent(); next = reader.next()) {
                write(storage, next.get(), reader.lineNumber());
                imported++;
            }
        } catch (IOException e) {
            message(e.getMessage());
            return fail("stopped; the lines before it stay written (" + entries(imported)
                    + "); importing the same input again replaces them");
        }
        message("imported " + entries(imported));
        return Main.EXIT_OK;
    }

    private static void write(Storage storage, StoredEntry entry, long lineNumber) throws IOException {
        boolean stored;
        try {
            stored = entry.kind() == EntryKind.TEXT
                    ? storage.putText(entry.key(), entry.text(), OverwritePolicy.REPLACE)
                    : storage.putBytes(entry.key(), new ByteArrayInputStream(entry.bytes()), OverwritePolicy.REPLACE);
        } catch (IOException e) {
            throw new IOException("line " + lineNumber + ": could not store the key " + Quoted.of(entry.key()) + ": "
                    + e.getMessage(), e);
        }
        if (!stored) { // REPLACE never refuses; a backend that does is not keeping the contract
            throw new IOException("line " + lineNumber + ": the storage refused to replace the key " + Quoted.of(entry.key()));
        }
    }
}
