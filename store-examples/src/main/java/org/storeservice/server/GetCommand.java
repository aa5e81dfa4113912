package org.storeservice.server;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Optional;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StoredEntry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/** {@code get KEY}: the value stored under KEY on standard output, exactly (text as UTF-8, bytes raw). */
@Command(name = "get", mixinStandardHelpOptions = true, versionProvider = ServerVersion.class, showDefaultValues = true,
        header = "Print the value stored under KEY.",
        description = {"Prints the value stored under KEY on standard output, exactly: text as UTF-8, bytes as they are,"
                + " with no newline added (on a terminal, a newline ends a value that has none). Exits with status 1 if"
                + " there is no entry under KEY.",
                "A KEY that starts with - goes after --: get -- --odd-key"})
final class GetCommand extends StorageCommand {
    @Parameters(paramLabel = "KEY", description = "The key to read.")
    String key;

    GetCommand(ToolContext context) {
        super(context);
    }

    @Override
    int run(Storage storage) throws IOException {
        Optional<StoredEntry> entry = storage.get(key);
        if (entry.isEmpty()) {
            return fail("no entry under the key " + Quoted.of(key));
        }
        // Into a pipe or a file nothing is added: the output is the value, byte for byte. On a terminal a newline
        // ends it unless it ends with one, so that the shell's prompt starts on a line of its own.
        byte[] value = entry.get().bytes();
        OutputStream buffered = new BufferedOutputStream(context.out(), 1 << 16);
        buffered.write(value);
        if (context.outIsTerminal() && (value.length == 0 || value[value.length - 1] != '\n')) {
            buffered.write('\n');
        }
        buffered.flush();
        return Main.EXIT_OK;
    }
}
