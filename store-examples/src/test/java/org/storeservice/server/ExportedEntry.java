package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One entry of the tool's {@code export}: whether it is bytes (else text), and its value's bytes (text in UTF-8).
 * {@link #parse} reads an export independently of the tool's own reader.
 */
record ExportedEntry(boolean bytes, byte[] value) {

    /** The export's lines by key; fails on a malformed line or a key exported twice. */
    static Map<String, ExportedEntry> parse(List<String> lines) throws IOException {
        JsonFactory json = new JsonFactory();
        Map<String, ExportedEntry> entries = new HashMap<>();
        for (String line : lines) {
            Map<String, String> fields = new HashMap<>();
            try (JsonParser parser = json.createParser(line)) {
                assertEquals(JsonToken.START_OBJECT, parser.nextToken(), line);
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String field = parser.currentName();
                    parser.nextToken();
                    fields.put(field, parser.getText());
                }
            }
            assertEquals(Set.of("key", "type", "value", "written"), fields.keySet(), line);
            boolean bytes = fields.get("type").equals("bytes");
            byte[] value = bytes ? Base64.getDecoder().decode(fields.get("value")) : fields.get("value").getBytes(UTF_8);
            if (entries.put(fields.get("key"), new ExportedEntry(bytes, value)) != null) {
                fail("exported twice: " + fields.get("key"));
            }
        }
        return entries;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ExportedEntry && ((ExportedEntry) o).bytes == bytes && Arrays.equals(((ExportedEntry) o).value, value);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(value) * 31 + Boolean.hashCode(bytes);
    }

    @Override
    public String toString() {
        return (bytes ? "bytes, " : "text, ") + value.length + " bytes";
    }
}
