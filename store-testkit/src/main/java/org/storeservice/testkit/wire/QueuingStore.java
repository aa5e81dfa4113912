package org.storeservice.testkit.wire;

import java.io.InputStream;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executor;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.Status;
import org.storeservice.api.Store;
import org.storeservice.api.storage.MemoryStorage;

/**
 * A {@link Store} whose WriteStrings wait in a queue until the test completes them, as SQLite's group commit answers
 * a write once its batch is committed: for testing that a host holds no thread while a write is queued, and
 * answers it once it completes. It says its writes may block; WriteBytes goes to a {@link DefaultStore} over
 * {@link #storage()}. Thread-safe.
 */
public final class QueuingStore implements Store {
    private final List<CompletableFuture<Status>> queued = new CopyOnWriteArrayList<>();
    private final MemoryStorage storage = new MemoryStorage();
    private final Store bytes = DefaultStore.of(storage);

    /** A store with nothing queued and nothing stored. */
    public QueuingStore() {
    }

    /** The WriteStrings queued so far, in order, each answered when the test completes its future. */
    public List<CompletableFuture<Status>> queued() {
        return queued;
    }

    /** Where WriteBytes stores. */
    public MemoryStorage storage() {
        return storage;
    }

    @Override
    public CompletionStage<Status> writeStringAsync(String key, String value, Executor blockingWork) {
        CompletableFuture<Status> write = new CompletableFuture<>();
        queued.add(write);
        return write;
    }

    /** Never called by a host that uses {@link #writeStringAsync}: fails the test if it is. */
    @Override
    public Status writeString(String key, String value) {
        throw new AssertionError("text goes through writeStringAsync");
    }

    @Override
    public Status writeBytes(String key, InputStream content) {
        return bytes.writeBytes(key, content);
    }
}
