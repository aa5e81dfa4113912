package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.storeservice.api.storage.StoredEntry;

/**
 * Reads entries in the {@linkplain EntryLines export format}, one line at a time, so an import never holds
 * more than one entry. Strict, so that a damaged or hand-edited file is stopped at the line that is wrong
 * rather than imported as something else: each line is exactly one object with the fields ({@code written} optional), all
 * strings, nothing unknown, nothing twice; {@code type} is {@code string} or {@code bytes}; a bytes value
 * is valid base64; {@code written} is an ISO-8601 instant; the key is not empty; the input is valid UTF-8.
 * Empty lines are skipped. Line ends may be {@code \n} or {@code \r\n}; the last line needs none.
 */
final class EntryLineReader {
    private static final Set<String> FIELDS = Set.of(EntryLines.KEY, EntryLines.TYPE, EntryLines.VALUE, EntryLines.WRITTEN);

    private final InputStream in;
    private final byte[] buffer = new byte[1 << 16];
    private int position;
    private int limit;
    private final ByteArrayOutputStream line = new ByteArrayOutputStream(1 << 12);
    private long lineNumber;

    /** Reads from {@code in}, which it never closes. */
    EntryLineReader(InputStream in) {
        this.in = in;
    }

    /** The number of the line last read (1 for the first). */
    long lineNumber() {
        return lineNumber;
    }

    /**
     * The next entry, or empty at the end of the input. Its write time is the line's {@code written}.
     *
     * @throws MalformedLineException if the next non-empty line is not an entry
     * @throws IOException if the input cannot be read
     */
    Optional<StoredEntry> next() throws IOException {
        while (readLine()) {
            lineNumber++;
            String text = decode();
            if (!text.isEmpty()) {
                return Optional.of(parse(text));
            }
        }
        return Optional.empty();
    }

    /**
     * Reads the next line's bytes into {@link #line}, without its end; false at the end of the input. Split
     * as bytes, then decoded line by line, so that invalid UTF-8 is reported on its own line (a decoding
     * reader reads ahead and would report it early).
     */
    private boolean readLine() throws IOException {
        line.reset();
        boolean any = false;
        while (true) {
            if (position == limit) {
                int n = in.read(buffer);
                if (n < 0) {
                    return any;
                }
                position = 0;
                limit = n;
            }
            any = true;
            int start = position;
            while (position < limit && buffer[position] != '\n') {
                position++;
            }
            line.write(buffer, start, position - start);
            if (position < limit) {
                position++; // past the '\n'
                return true;
            }
        }
    }

    private String decode() throws MalformedLineException {
        byte[] bytes = line.toByteArray();
        int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
        try {
            // A decoder (not a charset) so that invalid UTF-8 is an error, not silently replaced by U+FFFD.
            return UTF_8.newDecoder().decode(ByteBuffer.wrap(bytes, 0, length)).toString();
        } catch (CharacterCodingException e) {
            throw malformed("not valid UTF-8");
        }
    }

    private StoredEntry parse(String line) throws MalformedLineException {
        Map<String, String> fields = new HashMap<>();
        try (JsonParser parser = EntryLines.FACTORY.createParser(line)) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw malformed("not a JSON object");
            }
            for (JsonToken token = parser.nextToken(); token != JsonToken.END_OBJECT; token = parser.nextToken()) {
                String name = parser.currentName();
                if (!FIELDS.contains(name)) {
                    throw malformed("unknown field \"" + name + "\"; expected " + EntryLines.KEY + ", " + EntryLines.TYPE
                            + ", " + EntryLines.VALUE + ", " + EntryLines.WRITTEN);
                }
                if (parser.nextToken() != JsonToken.VALUE_STRING) {
                    throw malformed("field \"" + name + "\" is not a string");
                }
                fields.put(name, parser.getText());
            }
            if (parser.nextToken() != null) {
                throw malformed("more than one JSON value on the line");
            }
        } catch (MalformedLineException e) {
            throw e;
        } catch (JsonEOFException e) {
            throw malformed("not valid JSON: the line ends inside the object");
        } catch (JsonProcessingException e) {
            // Without the location Jackson appends: the line number says where, and the source is redacted anyway.
            throw malformed("not valid JSON: " + e.getOriginalMessage().replaceAll("\\s*\\(?\\s*(start marker )?at \\[Source:.*$", ""));
        } catch (IOException e) {
            // A parser over a String does no I/O; anything else it throws is about the text.
            throw malformed("not valid JSON: " + e.getMessage());
        }
        return entry(fields);
    }

    private StoredEntry entry(Map<String, String> fields) throws MalformedLineException {
        for (String name : new String[] {EntryLines.KEY, EntryLines.TYPE, EntryLines.VALUE}) { // written: optional
            if (!fields.containsKey(name)) {
                throw malformed("missing field \"" + name + "\"");
            }
        }
        String key = fields.get(EntryLines.KEY);
        if (key.isEmpty()) {
            throw malformed("empty key");
        }
        // Optional, and checked if given; an import stamps each write with its own time anyway.
        Instant written = Instant.EPOCH;
        if (fields.containsKey(EntryLines.WRITTEN)) {
            try {
                written = Instant.parse(fields.get(EntryLines.WRITTEN));
            } catch (DateTimeParseException e) {
                throw malformed("\"" + EntryLines.WRITTEN + "\" is not an ISO-8601 instant: " + fields.get(EntryLines.WRITTEN));
            }
        }
        String type = fields.get(EntryLines.TYPE);
        String value = fields.get(EntryLines.VALUE);
        switch (type) {
            case EntryLines.TYPE_STRING:
                return StoredEntry.text(key, value, written);
            case EntryLines.TYPE_BYTES:
                try {
                    return StoredEntry.bytes(key, Base64.getDecoder().decode(value), written);
                } catch (IllegalArgumentException e) {
                    throw malformed("\"" + EntryLines.VALUE + "\" of a bytes entry is not valid base64: " + base64Problem(value, e));
                }
            default:
                throw malformed("\"" + EntryLines.TYPE + "\" is neither \"" + EntryLines.TYPE_STRING + "\" nor \""
                        + EntryLines.TYPE_BYTES + "\": " + type);
        }
    }

    /** The first character outside the base64 alphabet and where it is (the JDK names it by its hex code), or the JDK's reason. */
    static String base64Problem(String value, IllegalArgumentException e) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            boolean alphabet = c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '+' || c == '/' || c == '=';
            if (!alphabet) {
                int codePoint = value.codePointAt(i);
                String shown = codePoint < 0x20 || codePoint == 0x7f ? String.format("U+%04X", codePoint)
                        : "'" + new String(Character.toChars(codePoint)) + "'";
                return shown + " at column " + (i + 1) + " of the value";
            }
        }
        return e.getMessage();
    }

    private MalformedLineException malformed(String reason) {
        return new MalformedLineException(lineNumber, reason);
    }
}
