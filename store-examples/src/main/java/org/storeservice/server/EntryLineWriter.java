package org.storeservice.server;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonGenerator;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Base64;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.api.storage.StoredEntry;

/** Writes entries as {@linkplain EntryLines JSON Lines}, one at a time, so an export never holds more than one. */
final class EntryLineWriter implements Flushable {
    private final JsonGenerator generator;

    /** Writes to {@code out}, which it buffers but never closes. */
    EntryLineWriter(OutputStream out) throws IOException {
        this.generator = EntryLines.FACTORY.createGenerator(out, JsonEncoding.UTF8);
    }

    void write(StoredEntry entry) throws IOException {
        generator.writeStartObject();
        generator.writeStringField(EntryLines.KEY, entry.key());
        if (entry.kind() == EntryKind.TEXT) {
            generator.writeStringField(EntryLines.TYPE, EntryLines.TYPE_STRING);
            generator.writeStringField(EntryLines.VALUE, entry.text());
        } else {
            generator.writeStringField(EntryLines.TYPE, EntryLines.TYPE_BYTES);
            generator.writeStringField(EntryLines.VALUE, Base64.getEncoder().encodeToString(entry.bytes()));
        }
        generator.writeStringField(EntryLines.WRITTEN, entry.writtenAt().toString());
        generator.writeEndObject();
        generator.writeRaw('\n');
    }

    /** Pushes everything written so far to the stream; an export is complete only once this returns. */
    @Override
    public void flush() throws IOException {
        generator.flush();
    }
}
