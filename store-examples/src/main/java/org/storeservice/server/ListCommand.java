package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import org.storeservice.api.storage.Storage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code list [--prefix P]}: the keys, one a line, in key order; streamed through {@code Storage.scan}. */
@Command(name = "list", mixinStandardHelpOptions = true, versionProvider = ServerVersion.class, showDefaultValues = true,
        header = "Print the keys, one a line.",
        description = {"Prints the keys on standard output, one a line (UTF-8, \\n), in key order.",
                "A key that holds a line break spans lines here; export gives every key exactly."})
final class ListCommand extends StorageCommand {
    @Option(names = "--prefix", paramLabel = "P", description = "Only the keys that start with P. Env: STORE_PREFIX.")
    String prefix;

    ListCommand(ToolContext context) {
        super(context);
    }

    @Override
    int run(Storage storage) throws IOException {
        // An encoder (not a charset) so that a key UTF-8 cannot encode fails rather than printing '?'.
        Writer keys = new BufferedWriter(new OutputStreamWriter(context.out(), UTF_8.newEncoder()), 1 << 16);
        storage.scan(prefix == null ? "" : prefix, entry -> {
            keys.write(entry.key());
            keys.write('\n');
        });
        keys.flush();
        return Main.EXIT_OK;
    }
}
