package org.storeservice.examples.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.Writer;
import java.util.Set;
import org.storeservice.api.storage.Storage;

/** {@code list [--prefix P]}: the keys, one a line, in key order; streamed through {@code Storage.scan}. */
final class ListCommand extends StorageCommand {
    private static final String PREFIX = "--prefix";

    private final OutputStream out;

    ListCommand(OutputStream out, PrintStream help, PrintStream err) {
        super("list", Set.of(PREFIX), 0, help, err);
        this.out = out;
    }

    @Override
    int run(Storage storage, ToolOptions options) throws IOException {
        // An encoder (not a charset) so that a key UTF-8 cannot encode fails rather than printing '?'.
        Writer keys = new BufferedWriter(new OutputStreamWriter(out, UTF_8.newEncoder()), 1 << 16);
        storage.scan(options.value(PREFIX).orElse(""), entry -> {
            keys.write(entry.key());
            keys.write('\n');
        });
        keys.flush();
        return Main.EXIT_OK;
    }

    @Override
    public String usage() {
        return String.join(System.lineSeparator(),
                "Usage: java -jar store-server.jar list [--storage URI] [--prefix P]",
                "Prints the keys on standard output, one a line (UTF-8, \\n), in key order.",
                "A key that holds a line break spans lines here; export gives every key exactly.",
                "",
                ToolUsage.STORAGE_OPTION,
                "  --prefix P           only the keys that start with P",
                ToolUsage.HELP_OPTION,
                "");
    }
}
