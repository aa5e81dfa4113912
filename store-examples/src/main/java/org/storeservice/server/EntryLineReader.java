package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.io.JsonEOFException;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.Month;
import java.time.Year;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
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
    /** The fields of a line, in the order {@link #entry} takes them. */
    private static final List<String> FIELDS = List.of(EntryLines.KEY, EntryLines.TYPE, EntryLines.VALUE, EntryLines.WRITTEN);

    private final InputStream in;
    private final byte[] buffer = new byte[1 << 16];
    private int position;
    private int limit;
    /** The bytes of the line being read, without its end: the first {@link #lineLength} of them. */
    private byte[] line = new byte[1 << 12];
    private int lineLength;
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
            int length = lineLength > 0 && line[lineLength - 1] == '\r' ? lineLength - 1 : lineLength;
            if (length == 0) {
                continue;
            }
            // An ASCII line that opens an object (what export writes, base64 included) is parsed from its bytes:
            // decoding it to a String first cost about as much as the parse. Any other line is decoded first, so
            // that invalid UTF-8 is reported as such, and so that Jackson never guesses an encoding from its
            // bytes (a NUL in the first bytes reads as UTF-16 or UTF-32 to it).
            if (line[0] == '{' && ascii(line, length)) {
                return Optional.of(parse(EntryLines.FACTORY.createParser(line, 0, length)));
            }
            return Optional.of(parse(EntryLines.FACTORY.createParser(decode(length))));
        }
        return Optional.empty();
    }

    /** Whether the first {@code length} bytes are ASCII without NUL. */
    private static boolean ascii(byte[] bytes, int length) {
        for (int i = 0; i < length; i++) {
            if (bytes[i] <= 0) {
                return false;
            }
        }
        return true;
    }

    /**
     * Reads the next line's bytes into {@link #line}, without its end; false at the end of the input. Split
     * as bytes, then decoded line by line, so that invalid UTF-8 is reported on its own line (a decoding
     * reader reads ahead and would report it early).
     */
    private boolean readLine() throws IOException {
        lineLength = 0;
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
            append(start, position - start);
            if (position < limit) {
                position++; // past the '\n'
                return true;
            }
        }
    }

    private void append(int start, int length) {
        if (lineLength + length > line.length) {
            line = Arrays.copyOf(line, Math.max(line.length * 2, lineLength + length));
        }
        System.arraycopy(buffer, start, line, lineLength, length);
        lineLength += length;
    }

    private String decode(int length) throws MalformedLineException {
        try {
            // A decoder (not a charset) so that invalid UTF-8 is an error, not silently replaced by U+FFFD.
            return UTF_8.newDecoder().decode(ByteBuffer.wrap(line, 0, length)).toString();
        } catch (CharacterCodingException e) {
            throw malformed("not valid UTF-8");
        }
    }

    /** Reads one entry from {@code source}, which holds the line and nothing else, and closes it. */
    private StoredEntry parse(JsonParser source) throws MalformedLineException {
        String[] values = new String[FIELDS.size()];
        try (JsonParser parser = source) {
            if (parser.nextToken() != JsonToken.START_OBJECT) {
                throw malformed("not a JSON object");
            }
            for (JsonToken token = parser.nextToken(); token != JsonToken.END_OBJECT; token = parser.nextToken()) {
                String name = parser.currentName();
                int field = FIELDS.indexOf(name);
                if (field < 0) {
                    throw malformed("unknown field \"" + name + "\"; expected " + EntryLines.KEY + ", " + EntryLines.TYPE
                            + ", " + EntryLines.VALUE + ", " + EntryLines.WRITTEN);
                }
                if (values[field] != null) {
                    // Checked here rather than by the parser (STRICT_DUPLICATE_DETECTION), which kept a hash set per line.
                    throw malformed("not valid JSON: Duplicate field '" + name + "'");
                }
                if (parser.nextToken() != JsonToken.VALUE_STRING) {
                    throw malformed("field \"" + name + "\" is not a string");
                }
                values[field] = parser.getText();
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
            // A parser over a String or an array does no I/O; anything else it throws is about the text.
            throw malformed("not valid JSON: " + e.getMessage());
        }
        return entry(values[0], values[1], values[2], values[3]);
    }

    private StoredEntry entry(String key, String type, String value, String written) throws MalformedLineException {
        if (key == null || type == null || value == null) { // written: optional
            throw malformed("missing field \"" + (key == null ? EntryLines.KEY : type == null ? EntryLines.TYPE : EntryLines.VALUE) + "\"");
        }
        if (key.isEmpty()) {
            throw malformed("empty key");
        }
        // Optional, and checked if given; an import stamps each write with its own time anyway.
        Instant writtenAt = Instant.EPOCH;
        if (written != null) {
            try {
                writtenAt = instant(written);
            } catch (DateTimeParseException e) {
                throw malformed("\"" + EntryLines.WRITTEN + "\" is not an ISO-8601 instant: " + written);
            }
        }
        switch (type) {
            case EntryLines.TYPE_STRING:
                return StoredEntry.text(key, value, writtenAt);
            case EntryLines.TYPE_BYTES:
                try {
                    return StoredEntry.bytes(key, Base64.getDecoder().decode(value), writtenAt);
                } catch (IllegalArgumentException e) {
                    throw malformed("\"" + EntryLines.VALUE + "\" of a bytes entry is not valid base64: " + base64Problem(value, e));
                }
            default:
                throw malformed("\"" + EntryLines.TYPE + "\" is neither \"" + EntryLines.TYPE_STRING + "\" nor \""
                        + EntryLines.TYPE_BYTES + "\": " + type);
        }
    }

    /**
     * {@link Instant#parse}, with a shortcut for the form export writes ({@link Instant#toString()} of the years
     * 0000-9999 in UTC, {@code 2026-01-02T03:04:05.678123Z}, up to nine fraction digits): the general parser took
     * about a fifth of an import's parsing time. Whatever else the shortcut does not know for certain (lower-case
     * {@code t} or {@code z}, an offset, a leap second, a longer year, a day the month does not have) goes to
     * {@code Instant.parse}, which decides, so the two accept the same strings and give the same instants.
     *
     * @throws DateTimeParseException if {@code text} is not an ISO-8601 instant
     */
    static Instant instant(String text) {
        int length = text.length();
        boolean shape = length >= 20 && length <= 30 && length != 21 && text.charAt(4) == '-' && text.charAt(7) == '-'
                && text.charAt(10) == 'T' && text.charAt(13) == ':' && text.charAt(16) == ':'
                && text.charAt(length - 1) == 'Z' && (length == 20 || text.charAt(19) == '.');
        if (!shape) {
            return Instant.parse(text);
        }
        int year = digits(text, 0, 4);
        int month = digits(text, 5, 7);
        int day = digits(text, 8, 10);
        int hour = digits(text, 11, 13);
        int minute = digits(text, 14, 16);
        int second = digits(text, 17, 19);
        int fraction = length == 20 ? 0 : digits(text, 20, length - 1);
        if (year < 0 || month < 1 || month > 12 || day < 1 || day > Month.of(month).length(Year.isLeap(year))
                || hour < 0 || hour > 23 || minute < 0 || minute > 59 || second < 0 || second > 59 || fraction < 0) {
            return Instant.parse(text);
        }
        for (int i = length - 1; i < 29; i++) { // 29: where the ninth fraction digit would end
            fraction *= 10;
        }
        long epochDay = LocalDate.of(year, month, day).toEpochDay();
        return Instant.ofEpochSecond(epochDay * 86_400 + hour * 3_600 + minute * 60 + second, fraction);
    }

    /** The decimal number in {@code text} from {@code start} to {@code end} (at most nine digits), or -1 if any is not 0-9. */
    private static int digits(String text, int start, int end) {
        int value = 0;
        for (int i = start; i < end; i++) {
            int digit = text.charAt(i) - '0';
            if (digit < 0 || digit > 9) {
                return -1;
            }
            value = value * 10 + digit;
        }
        return value;
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
