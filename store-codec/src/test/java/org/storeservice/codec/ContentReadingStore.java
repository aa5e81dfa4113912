package org.storeservice.codec;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.storeservice.api.Status;
import org.storeservice.api.Store;

/** A Store for WriteBytes only, whose writes hand the content to a test's reader and answer Success. */
public final class ContentReadingStore implements Store {
    /** What a test does with the content the codec hands to the store. */
    @FunctionalInterface
    public interface ContentReader {
        void read(InputStream content) throws IOException;
    }

    private final ContentReader reader;

    public ContentReadingStore(ContentReader reader) {
        this.reader = reader;
    }

    @Override
    public Status writeString(String key, String value) {
        throw new AssertionError("not a WriteString");
    }

    @Override
    public Status writeBytes(String key, InputStream content) {
        try {
            reader.read(content);
            return Status.SUCCESS;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
