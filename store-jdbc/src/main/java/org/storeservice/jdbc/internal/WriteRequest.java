package org.storeservice.jdbc.internal;

import java.time.Instant;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryKind;

/**
 * One write on its way to the database: exactly one of {@code text} and {@code bytes} holds the value. A text
 * value the text column cannot hold arrives as {@code bytes} with kind TEXT. The caller owns {@code bytes} (and
 * deletes its file once the write is answered); the database side only reads it, when it binds the statement.
 * A {@linkplain #deletion deletion} has no kind and no value.
 */
public record WriteRequest(String key, EntryKind kind, String text, SpooledContent bytes, OverwritePolicy policy,
        Instant writtenAt) {

    /** The removal of {@code key}'s row, which goes the way of the writes (SQLite: through the one writer). */
    public static WriteRequest deletion(String key) {
        return new WriteRequest(key, null, null, null, OverwritePolicy.REPLACE, null);
    }

    public boolean deletes() {
        return kind == null;
    }
}
