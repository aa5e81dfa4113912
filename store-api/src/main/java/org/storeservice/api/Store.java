package org.storeservice.api;

import java.io.ByteArrayInputStream;
import java.io.InputStream;

/**
 * The two write operations of the service, callable directly by a host application.
 *
 * <p>Every outcome of a write is a {@link Status}: invalid input and storage failures give
 * {@link Status#ERROR}, never an exception. The one exception is a failure of the caller's own
 * {@code content} stream, which is the caller's to handle: see {@link #writeBytes(String, InputStream)}.
 *
 * <p>Implementations are thread-safe.
 */
public interface Store {

    /**
     * Stores {@code value} as text under {@code key}.
     *
     * @param key the entry's key; {@code null} or empty gives {@link Status#ERROR}
     * @param value the text; {@code null} gives {@link Status#ERROR}, empty is stored as empty
     */
    Status writeString(String key, String value);

    /**
     * Stores the bytes read from {@code content} under {@code key}, reading the stream to its end.
     * The stream is not held whole in memory by the store itself (a backend may buffer it; see its docs).
     *
     * <p>If the write fails, nothing is stored: a reader never sees part of {@code content}.
     * The caller closes {@code content}.
     *
     * @param key the entry's key; {@code null} or empty gives {@link Status#ERROR}
     * @param content the bytes; {@code null} gives {@link Status#ERROR}, an empty stream is stored as empty
     * @throws ContentStreamException if reading {@code content} itself failed (for example a decoder
     *     found invalid input mid-stream); nothing was stored
     */
    Status writeBytes(String key, InputStream content);

    /**
     * Whether {@link #writeString} and {@link #writeBytes} never block, given content already in memory, so
     * that a server may call them on a thread that must not block; the exact promise is
     * {@link org.storeservice.api.storage.Storage#writesNeverBlock()}'s. {@code false} by default, which is
     * always safe.
     */
    default boolean writesNeverBlock() {
        return false;
    }

    /**
     * Stores {@code content} under {@code key}; the same as {@link #writeBytes(String, InputStream)} over
     * the array.
     *
     * @param content the bytes; {@code null} gives {@link Status#ERROR}, empty is stored as empty
     */
    default Status writeBytes(String key, byte[] content) {
        return writeBytes(key, content == null ? null : new ByteArrayInputStream(content));
    }
}
