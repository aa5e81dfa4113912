package org.storeservice.examples.server;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Optional;
import java.util.Set;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StoredEntry;

/** {@code get KEY}: the value stored under KEY on standard output, exactly (text as UTF-8, bytes raw). */
final class GetCommand extends StorageCommand {
    private final OutputStream out;

    GetCommand(OutputStream out, PrintStream help, PrintStream err) {
        super("get", Set.of(), 1, help, err);
        this.out = out;
    }

    @Override
    int run(Storage storage, ToolOptions options) throws IOException {
        String key = options.positionals().get(0);
        Optional<StoredEntry> entry = storage.get(key);
        if (entry.isEmpty()) {
            return fail("no entry under the key " + Quoted.of(key));
        }
        // Nothing added (no newline): the output is the value, byte for byte, and can be redirected to a file.
        OutputStream buffered = new BufferedOutputStream(out, 1 << 16);
        buffered.write(entry.get().bytes());
        buffered.flush();
        return Main.EXIT_OK;
    }

    @Override
    public String usage() {
        return String.join(System.lineSeparator(),
                "Usage: java -jar store-server.jar get [--storage URI] [--] KEY",
                "Prints the value stored under KEY on standard output, exactly: text as UTF-8, bytes as they are,",
                "with no newline added. Exits with status 1 if there is no entry under KEY.",
                "",
                ToolUsage.STORAGE_OPTION,
                ToolUsage.HELP_OPTION,
                "");
    }
}
