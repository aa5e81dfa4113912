package org.storeservice.jdbc.internal;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/** How writes reach the database: one serialized group-committing writer (SQLite) or a pool (PostgreSQL). */
public interface WritePath extends AutoCloseable {

    /**
     * Writes {@code request} durably before returning.
     *
     * @return {@code true} if written; {@code false} if the policy rejected an existing key
     * @throws IOException if the write is not known to have happened: nothing was written, or (PostgreSQL) the
     *     connection broke after the server committed, and the new value is there
     */
    boolean write(WriteRequest request) throws IOException;

    /**
     * {@link #write}, without blocking the calling thread: completes with what {@code write} returns, or
     * exceptionally with what it throws. By default {@code write} runs on {@code blockingWork}.
     */
    default CompletableFuture<Boolean> writeAsync(WriteRequest request, Executor blockingWork) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return write(request);
            } catch (IOException e) {
                throw new CompletionException(e);
            }
        }, blockingWork);
    }

    /**
     * Writes every request (all {@link org.storeservice.api.OverwritePolicy#REPLACE}) in one transaction, durably
     * before returning: all of them or, if it throws, none (unless, on PostgreSQL, the connection broke after the
     * server committed).
     */
    void writeAll(List<WriteRequest> requests) throws IOException;

    /**
     * Deletes {@code key}'s row durably before returning.
     *
     * @return {@code true} if there was one
     * @throws IOException if the deletion is not known to have happened
     */
    default boolean delete(String key) throws IOException {
        return write(WriteRequest.deletion(key));
    }

    /** Whether the last attempt to commit succeeded (or none failed yet); {@code false} while the database is away. */
    default boolean committing() {
        return true;
    }

    /**
     * Returns if a write would commit now, as far as this path can tell; throws, saying why, if not. By default it
     * can tell nothing more than that the storage is open.
     */
    default void checkWritable() throws IOException {
    }

    /** Finishes or fails what is in flight and releases connections. */
    @Override
    void close();
}
