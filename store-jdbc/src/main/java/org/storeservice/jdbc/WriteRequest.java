package org.storeservice.jdbc;

import java.io.InputStream;
import java.time.Instant;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryKind;

/**
 * One write on its way to the database: exactly one of {@code text}, {@code bytes} and {@code stream}
 * holds the value; a stream holds exactly {@code streamLength} bytes. A text value the text column cannot
 * hold arrives as {@code bytes} with kind TEXT. A {@linkplain #deletion deletion} has no kind and no value.
 */
record WriteRequest(String key, EntryKind kind, String text, byte[] bytes, InputStream stream, long streamLength,
        OverwritePolicy policy, Instant writtenAt) {

    /** The removal of {@code key}'s row, which goes the way of the writes (SQLite: through the one writer). */
    static WriteRequest deletion(String key) {
        return new WriteRequest(key, null, null, null, null, 0, OverwritePolicy.REPLACE, null);
    }

    boolean deletes() {
        return kind == null;
    }
}
