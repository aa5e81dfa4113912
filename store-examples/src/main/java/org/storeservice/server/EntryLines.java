package org.storeservice.server;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonFactoryBuilder;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.json.JsonWriteFeature;

/**
 * The export format, JSON Lines: one JSON object per line, in this field order,
 * <pre>{"key":"k","type":"string","value":"text","written":"2026-01-02T03:04:05.678Z"}
 *{"key":"b","type":"bytes","value":"AAEC","written":"2026-01-02T03:04:05.679Z"}</pre>
 * {@code type} is {@code string} (an entry written by WriteString; {@code value} is the text) or {@code bytes}
 * (written by WriteBytes; {@code value} is the bytes in base64, RFC 4648 standard alphabet with padding);
 * {@code written} is when the backend recorded the write, ISO-8601 in UTC. The file is UTF-8, lines end
 * with {@code \n}. What {@link EntryLineWriter} writes and {@link EntryLineReader} reads.
 */
final class EntryLines {
    static final String KEY = "key";
    static final String TYPE = "type";
    static final String VALUE = "value";
    static final String WRITTEN = "written";

    static final String TYPE_STRING = "string";
    static final String TYPE_BYTES = "bytes";

    /**
     * Shared and thread-safe. Characters outside the BMP (emoji) written as themselves in UTF-8, not as
     * escaped surrogate pairs, so an export reads and greps like its data. No separator between objects (the
     * writer ends each with a newline), the
     * standard output is never closed by a generator or parser, and a value may be as long as a Java string: a
     * line is read whole anyway, and the backends decide how large a value may be. (A field given twice is an
     * error, not "last one wins": {@link EntryLineReader} checks that itself.)
     */
    static final JsonFactory FACTORY = new JsonFactoryBuilder()
            .rootValueSeparator((String) null)
            .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .disable(StreamReadFeature.AUTO_CLOSE_SOURCE)
            .streamReadConstraints(StreamReadConstraints.builder().maxStringLength(Integer.MAX_VALUE).build())
            .build();

    private EntryLines() {
    }
}
