package org.storeservice.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;
import org.storeservice.api.storage.EntryVisitor;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StorageException;
import org.storeservice.api.storage.StoredEntry;

/**
 * {@link Store#writeStringAsync} and {@link org.storeservice.api.storage.Storage#putTextAsync}: where the write
 * runs (here, on the blocking executor, or wherever the storage completes it), and that the store's stage answers a
 * status whatever the storage's stage does.
 */
class AsyncWriteTest {
    /** Runs nothing at once: records each task, so a test can see what was handed over and run it later. */
    private static final class RecordingExecutor implements Executor {
        final List<Runnable> tasks = new ArrayList<>();

        @Override
        public void execute(Runnable task) {
            tasks.add(task);
        }
    }

    /** A memory storage that says its writes may block: the subclasses change one thing each. */
    private static class MayBlockStorage implements Storage {
        private final MemoryStorage memory = new MemoryStorage();

        @Override
        public boolean putText(String key, String value, OverwritePolicy policy) throws IOException {
            return memory.putText(key, value, policy);
        }

        @Override
        public boolean putBytes(String key, InputStream content, OverwritePolicy policy) throws IOException {
            return memory.putBytes(key, content, policy);
        }

        @Override
        public Optional<StoredEntry> get(String key) throws IOException {
            return memory.get(key);
        }

        @Override
        public void scan(String keyPrefix, EntryVisitor visitor) throws IOException {
            memory.scan(keyPrefix, visitor);
        }

        @Override
        public void close() {
            memory.close();
        }
    }

    /** Its text writes are queued: each answers a future the test holds. */
    private static final class QueuingStorage extends MayBlockStorage {
        final List<CompletableFuture<Boolean>> queued = new ArrayList<>();

        @Override
        public CompletionStage<Boolean> putTextAsync(String key, String value, OverwritePolicy policy,
                Executor blockingWork) {
            CompletableFuture<Boolean> write = new CompletableFuture<>();
            queued.add(write);
            return write;
        }
    }

    /** Fails its writes when told. */
    private static final class BlockingStorage extends MayBlockStorage {
        volatile boolean fail;

        @Override
        public boolean putText(String key, String value, OverwritePolicy policy) throws IOException {
            if (fail) {
                throw new StorageException("disk full");
            }
            return super.putText(key, value, policy);
        }
    }

    @Test
    void theStoresStageCompletesWhenTheStorageCompletesTheQueuedWrite() {
        QueuingStorage storage = new QueuingStorage();
        DefaultStore store = DefaultStore.of(storage);

        CompletableFuture<Status> written = store.writeStringAsync("k", "v", new RecordingExecutor()).toCompletableFuture();

        assertEquals(1, storage.queued.size(), "handed to the storage at once");
        assertFalse(written.isDone(), "no answer before the storage's");
        storage.queued.get(0).complete(true);
        assertEquals(Status.SUCCESS, written.join());
    }

    @Test
    void aQueuedWriteThatFailsOrIsRefusedIsAnErrorNeverAFailedStage() {
        QueuingStorage storage = new QueuingStorage();
        DefaultStore store = DefaultStore.of(storage);

        CompletableFuture<Status> failed = store.writeStringAsync("a", "v", Runnable::run).toCompletableFuture();
        CompletableFuture<Status> refused = store.writeStringAsync("b", "v", Runnable::run).toCompletableFuture();
        storage.queued.get(0).completeExceptionally(new StorageException("disk full"));
        storage.queued.get(1).complete(false); // REJECT found the key taken

        assertEquals(Status.ERROR, failed.join());
        assertEquals(Status.ERROR, refused.join());
    }

    @Test
    void invalidInputIsAnErrorAtOnceAndNeverReachesTheStorage() {
        QueuingStorage storage = new QueuingStorage();
        DefaultStore store = DefaultStore.of(storage);

        assertEquals(Status.ERROR, store.writeStringAsync("", "v", Runnable::run).toCompletableFuture().getNow(null));
        assertEquals(Status.ERROR, store.writeStringAsync("k", null, Runnable::run).toCompletableFuture().getNow(null));
        assertEquals(Status.ERROR, store.writeStringAsync("k", "x\uD800", Runnable::run).toCompletableFuture().getNow(null));
        assertTrue(storage.queued.isEmpty());
    }

    @Test
    void aStorageThatMayBlockWritesOnTheBlockingExecutorNotOnTheCallersThread() throws IOException {
        BlockingStorage storage = new BlockingStorage();
        RecordingExecutor blockingWork = new RecordingExecutor();

        CompletableFuture<Status> written = DefaultStore.of(storage).writeStringAsync("k", "v", blockingWork)
                .toCompletableFuture();

        assertEquals(1, blockingWork.tasks.size());
        assertTrue(storage.get("k").isEmpty(), "not written on the caller's thread");
        blockingWork.tasks.get(0).run();
        assertEquals(Status.SUCCESS, written.join());
        assertEquals("v", storage.get("k").orElseThrow().text());
    }

    @Test
    void theStoragesDefaultFailsItsStageWithWhatPutTextThrows() {
        BlockingStorage storage = new BlockingStorage();
        storage.fail = true;

        CompletableFuture<Boolean> put = storage.putTextAsync("k", "v", OverwritePolicy.REPLACE, Runnable::run)
                .toCompletableFuture();

        CompletionException failure = assertThrows(CompletionException.class, put::join);
        assertInstanceOf(StorageException.class, failure.getCause());
        assertEquals(Status.ERROR, DefaultStore.of(storage).writeStringAsync("k", "v", Runnable::run)
                .toCompletableFuture().join());
    }

    @Test
    void aStorageThatNeverBlocksWritesRightHere() throws IOException {
        MemoryStorage storage = new MemoryStorage();
        RecordingExecutor blockingWork = new RecordingExecutor();

        CompletableFuture<Status> written = DefaultStore.of(storage).writeStringAsync("k", "v", blockingWork)
                .toCompletableFuture();

        assertEquals(Status.SUCCESS, written.getNow(null), "done before the call returned");
        assertTrue(blockingWork.tasks.isEmpty());
        assertEquals("v", storage.get("k").orElseThrow().text());
    }

    @Test
    void aStoreOfItsOwnGetsTheSameDefault() {
        List<String> calledOn = new ArrayList<>();
        Store own = new Store() {
            @Override
            public Status writeString(String key, String value) {
                calledOn.add(Thread.currentThread().getName());
                return Status.SUCCESS;
            }

            @Override
            public Status writeBytes(String key, InputStream content) {
                return Status.SUCCESS;
            }
        };
        RecordingExecutor blockingWork = new RecordingExecutor();

        CompletableFuture<Status> written = own.writeStringAsync("k", "v", blockingWork).toCompletableFuture();

        assertTrue(calledOn.isEmpty(), "a store that may block is not called on the caller's thread");
        Thread worker = new Thread(blockingWork.tasks.get(0), "blocking-work");
        worker.start();
        assertSame(Status.SUCCESS, written.join());
        assertEquals(List.of("blocking-work"), calledOn);
    }
}
