package org.storeservice.examples.server;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Set;
import org.storeservice.api.storage.Storage;

/**
 * {@code export}: every entry as {@linkplain EntryLines JSON Lines} on standard output, streamed through
 * {@code Storage.scan}, so a store larger than memory can be exported.
 */
final class ExportCommand extends StorageCommand {
    private final OutputStream out;

    ExportCommand(OutputStream out, PrintStream help, PrintStream err) {
        super("export", Set.of(), 0, help, err);
        this.out = out;
    }

    @Override
    int run(Storage storage, ToolOptions options) throws IOException {
        EntryLineWriter writer = new EntryLineWriter(out);
        long[] count = {0};
        try {
            storage.scan("", entry -> {
                writer.write(entry);
                count[0]++;
            });
            writer.flush();
        } catch (IOException e) {
            // Standard output may hold part of the export: say how much is whole.
            return fail(e.getMessage() + " (after " + entries(count[0]) + "; the output is incomplete)");
        }
        message("exported " + entries(count[0]));
        return Main.EXIT_OK;
    }

    @Override
    public String usage() {
        return String.join(System.lineSeparator(),
                "Usage: java -jar store-server.jar export [--storage URI]",
                "Prints every entry on standard output as JSON Lines, in key order, one object a line:",
                "  {\"key\":\"k\",\"type\":\"string\",\"value\":\"text\",\"written\":\"2026-01-02T03:04:05.678Z\"}",
                "  {\"key\":\"b\",\"type\":\"bytes\",\"value\":\"AAEC\",\"written\":\"2026-01-02T03:04:05.679Z\"}",
                "type is string (WriteString) or bytes (WriteBytes, value in base64). import reads it back.",
                "",
                ToolUsage.STORAGE_OPTION,
                ToolUsage.HELP_OPTION,
                "");
    }
}
