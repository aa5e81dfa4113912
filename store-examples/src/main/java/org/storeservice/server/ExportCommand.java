package org.storeservice.server;

import java.io.IOException;
import org.storeservice.api.storage.Storage;
import picocli.CommandLine.Command;

/**
 * {@code export}: every entry as {@linkplain EntryLines JSON Lines} on standard output, streamed through
 * {@code Storage.scan}, so a store larger than memory can be exported.
 */
@Command(name = "export", mixinStandardHelpOptions = true, versionProvider = ServerVersion.class, showDefaultValues = true,
        header = "Print every entry as JSON Lines.",
        description = {"Prints every entry on standard output as JSON Lines, in key order, one object a line:",
                "  {\"key\":\"k\",\"type\":\"string\",\"value\":\"text\",\"written\":\"2026-01-02T03:04:05.678Z\"}",
                "  {\"key\":\"b\",\"type\":\"bytes\",\"value\":\"AAEC\",\"written\":\"2026-01-02T03:04:05.679Z\"}",
                "type is string (WriteString) or bytes (WriteBytes, value in base64). import reads it back."})
final class ExportCommand extends StorageCommand {
    ExportCommand(ToolContext context) {
        super(context);
    }

    @Override
    int run(Storage storage) throws IOException {
        EntryLineWriter writer = new EntryLineWriter(context.out());
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
}
