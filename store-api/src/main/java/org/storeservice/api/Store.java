package org.storeservice.api;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

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
     * @return {@link Status#SUCCESS} once the value is stored, {@link Status#ERROR} if it is not known to be
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
     * @return {@link Status#SUCCESS} once the bytes are stored, {@link Status#ERROR} if they are not known to be
     * @throws ContentStreamException if reading {@code content} itself failed (for example a decoder
     *     found invalid input mid-stream); nothing was stored
     */
    Status writeBytes(String key, InputStream content);

    /**
     * {@link #writeString}, without blocking the calling thread: a server calls it on a thread that serves many
     * connections. The stage completes with the status {@code writeString} would return, once the write is as
     * durable as {@code writeString}'s return promises; it never completes exceptionally. A store that queues its
     * writes (SQLite's group commit) completes it on the thread that committed, so that no thread waits per write.
     *
     * <p>The default calls {@code writeString} right here if {@link #writesNeverBlock()}, else on
     * {@code blockingWork}, which is correct for any store.
     *
     * @param key as for {@code writeString}
     * @param value as for {@code writeString}
     * @param blockingWork runs work that may block; a thread that may block itself passes {@code Runnable::run}
     * @return the write's status, once known
     */
    default CompletionStage<Status> writeStringAsync(String key, String value, Executor blockingWork) {
        if (writesNeverBlock()) {
            return CompletableFuture.completedFuture(writeString(key, value));
        }
        return CompletableFuture.supplyAsync(() -> writeString(key, value), blockingWork);
    }

    /**
     * {@link #writeBytes(String, InputStream)}, without blocking the calling thread, given {@code content} already in
     * memory: a server calls it on a thread that serves many connections. The stage completes with the status
     * {@code writeBytes} would return, once the write is as durable as {@code writeBytes}'s return promises. It
     * completes exceptionally only where {@code writeBytes} throws: with a {@link ContentStreamException} (possibly
     * wrapped in a {@link java.util.concurrent.CompletionException}) if reading {@code content} failed, and then
     * nothing was stored. A store that queues its writes may read a small content here and complete the stage on the
     * thread that committed it. The caller closes {@code content} once the stage has completed.
     *
     * <p>The default calls {@code writeBytes} right here if {@link #writesNeverBlock()}, else on
     * {@code blockingWork}, which is correct for any store.
     *
     * @param key as for {@code writeBytes}
     * @param content the bytes, already in memory
     * @param blockingWork runs work that may block; a thread that may block itself passes {@code Runnable::run}
     * @return the write's status, once known
     */
    default CompletionStage<Status> writeBytesAsync(String key, InputStream content, Executor blockingWork) {
        if (writesNeverBlock()) {
            try {
                return CompletableFuture.completedFuture(writeBytes(key, content));
            } catch (ContentStreamException e) {
                return CompletableFuture.failedFuture(e);
            }
        }
        return CompletableFuture.supplyAsync(() -> writeBytes(key, content), blockingWork);
    }

    /**
     * {@return whether {@link #writeString} and {@link #writeBytes} never block}, given content already in memory, so
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
     * @param key the entry's key; {@code null} or empty gives {@link Status#ERROR}
     * @param content the bytes; {@code null} gives {@link Status#ERROR}, empty is stored as empty
     * @return {@link Status#SUCCESS} once the bytes are stored, {@link Status#ERROR} if they are not known to be
     */
    default Status writeBytes(String key, byte[] content) {
        return writeBytes(key, content == null ? null : new ByteArrayInputStream(content));
    }
}
