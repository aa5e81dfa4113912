package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.storeservice.api.storage.StoredEntry;

/**
 * The reader's two ways through a line (an ASCII object parsed from its bytes, anything else decoded first) and its
 * shortcut for {@code written} must accept and reject exactly what the general ones do.
 */
class EntryLineReaderTest {

    @Test
    void theWrittenShortcutAgreesWithInstantParse() {
        List<String> texts = new ArrayList<>(List.of(
                "2026-01-02T03:04:05Z", "2026-01-02T03:04:05.6Z", "2026-01-02T03:04:05.678123Z",
                "2026-01-02T03:04:05.123456789Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z",
                "2024-02-29T12:00:00Z", "2000-02-29T00:00:00Z", "1970-01-01T00:00:00.000001Z",
                // not the shortcut's: Instant.parse decides, and the result must be the same
                "2026-01-02t03:04:05z", "2026-01-02T03:04:05+01:00", "2016-12-31T23:59:60Z", "+10000-01-01T00:00:00Z",
                "2026-01-02T03:04:05.Z", "2026-01-02T03:04:05.1234567890Z", "2026-01-02T03:04Z",
                // rejected by both
                "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-13-01T00:00:00Z",
                "2026-00-01T00:00:00Z", "2026-01-00T00:00:00Z", "2026-01-02T24:00:00Z", "2026-01-02T03:60:00Z",
                "2026-01-02T03:04:61Z", "2026-01-02T03:04:05.12a4Z", "2026-01-0xT03:04:05Z", "2026-01-02 03:04:05Z",
                "2026-01-02T03:04:05", "yesterday", "", "2026-01-02T03:04:05.678123ZZ", "２０２６-01-02T03:04:05Z",
                "2026-1-02T03:04:05.0000Z", "-001-01-01T00:00:00Z"));
        Random random = new Random(14);
        for (int i = 0; i < 10_000; i++) {
            Instant any = Instant.ofEpochSecond(random.nextLong(-62_167_219_200L, 253_402_300_800L), // years 0000-9999
                    random.nextBoolean() ? 0 : random.nextInt(1_000_000_000));
            texts.add(any.toString());
            texts.add(any.truncatedTo(java.time.temporal.ChronoUnit.MICROS).toString());
        }
        for (String text : texts) {
            Instant expected;
            try {
                expected = Instant.parse(text);
            } catch (DateTimeParseException e) {
                assertThrows(DateTimeParseException.class, () -> EntryLineReader.instant(text), text);
                continue;
            }
            assertEquals(expected, EntryLineReader.instant(text), text);
        }
    }

    @Test
    void linesThatAreNotPlainAsciiObjectsReadAsBefore() throws IOException {
        String nonAscii = "{\"key\":\"k\u00e9\",\"type\":\"string\",\"value\":\"\u00fc \u4e2d \ud83d\ude00\",\"written\":\"2026-01-02T03:04:05Z\"}";
        assertEquals(List.of(StoredEntry.text("k\u00e9", "\u00fc \u4e2d \ud83d\ude00", Instant.EPOCH)), read(nonAscii + "\n"));
        // Leading white space: not an object's first byte, but still a valid line.
        assertEquals(List.of(StoredEntry.text("k", "v", Instant.EPOCH)),
                read(" \t{\"key\":\"k\",\"type\":\"string\",\"value\":\"v\"}\r\n\r\n"));
        // Escapes, in a line parsed from its bytes.
        assertEquals(List.of(StoredEntry.text("k\u0000", "a\"b\\c\u00e9\ud83d\ude00\n", Instant.EPOCH)),
                read("{\"key\":\"k\\u0000\",\"type\":\"string\",\"value\":\"a\\\"b\\\\c\\u00e9\\ud83d\\ude00\\n\"}"));
    }

    @Test
    void aLineLongerThanTheReadBufferIsReadWhole() throws IOException {
        String value = "x".repeat(200_000);
        String line = "{\"key\":\"long\",\"type\":\"string\",\"value\":\"" + value + "\"}\n";
        assertEquals(List.of(StoredEntry.text("long", value, Instant.EPOCH), StoredEntry.text("long", value, Instant.EPOCH)),
                read(line + line));
    }

    @Test
    void bytesJacksonWouldReadAsAnotherEncodingAreRefused() {
        // A NUL among the first bytes makes Jackson's byte-source detection guess UTF-16 or UTF-32; these lines
        // must go the decoding way and fail as they did.
        byte[] utf16le = "{\"key\":\"k\",\"type\":\"string\",\"value\":\"v\"}".getBytes(java.nio.charset.StandardCharsets.UTF_16LE);
        assertMalformed(utf16le, "line 1: not valid JSON");
        byte[] utf16be = "{\"key\":\"k\",\"type\":\"string\",\"value\":\"v\"}".getBytes(java.nio.charset.StandardCharsets.UTF_16BE);
        assertMalformed(utf16be, "line 1: not valid JSON");
        // A UTF-8 byte order mark is not skipped: a line is one object and nothing else.
        assertMalformed("\ufeff{\"key\":\"k\",\"type\":\"string\",\"value\":\"v\"}".getBytes(UTF_8), "line 1: not valid JSON");
        // A surrogate encoded in UTF-8 (CESU-8) and an overlong encoding are not UTF-8.
        assertMalformed(new byte[] {'{', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', '}'}, "line 1: not valid UTF-8");
        assertMalformed(new byte[] {'{', '"', (byte) 0xC0, (byte) 0xAF, '"', '}'}, "line 1: not valid UTF-8");
    }

    @Test
    void aFieldGivenTwiceIsRefusedAtItsName() {
        assertMalformed("{\"key\":\"k\",\"type\":\"string\",\"type\":1}".getBytes(UTF_8),
                "line 1: not valid JSON: Duplicate field 'type'");
        assertMalformed("{\"key\":\"k\",\"value\":\"\u00e9\",\"value\":\"v\"}".getBytes(UTF_8),
                "line 1: not valid JSON: Duplicate field 'value'");
    }

    private static void assertMalformed(byte[] line, String messageStart) {
        MalformedLineException e = assertThrows(MalformedLineException.class,
                () -> new EntryLineReader(new ByteArrayInputStream(line)).next());
        assertTrue(e.getMessage().startsWith(messageStart), e.getMessage());
    }

    private static List<StoredEntry> read(String input) throws IOException {
        EntryLineReader reader = new EntryLineReader(new ByteArrayInputStream(input.getBytes(UTF_8)));
        List<StoredEntry> entries = new ArrayList<>();
        for (Optional<StoredEntry> next = reader.next(); next.isPresent(); next = reader.next()) {
            entries.add(next.get());
        }
        return entries;
    }
}
