package org.storeservice.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
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
        final List<byte[]> queuedBytes = new ArrayList<>();

        @Override
        public CompletionStage<Boolean> putTextAsync(String key, String value, OverwritePolicy policy,
                Executor blockingWork) {
            CompletableFuture<Boolean> write = new CompletableFuture<>();
            queued.add(write);
            return write;
        }

        /** Reads the content here, as SQLite reads a small one before queueing it, then queues. */
        @Override
        public CompletionStage<Boolean> putBytesAsync(String key, InputStream content, OverwritePolicy policy,
                Executor blockingWork) {
            try {
                queuedBytes.add(content.readAllBytes());
            } catch (IOException e) {
                return CompletableFuture.failedFuture(e);
            }
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

    @Test
    void aQueuedByteWriteIsReadAtOnceAndTheStoresStageCompletesWhenTheStorageCompletesIt() {
        QueuingStorage storage = new QueuingStorage();
        DefaultStore store = DefaultStore.of(storage);

        CompletableFuture<Status> written = store.writeBytesAsync("k", new ByteArrayInputStream(new byte[] {1, 2}),
                new RecordingExecutor()).toCompletableFuture();
        CompletableFuture<Status> failed = store.writeBytesAsync("f", new ByteArrayInputStream(new byte[0]),
                new RecordingExecutor()).toCompletableFuture();

        assertArrayEquals(new byte[] {1, 2}, storage.queuedBytes.get(0), "read and handed to the storage at once");
        assertFalse(written.isDone(), "no answer before the storage's");
        storage.queued.get(0).complete(true);
        storage.queued.get(1).completeExceptionally(new StorageException("disk full"));
        assertEquals(Status.SUCCESS, written.join());
        assertEquals(Status.ERROR, failed.join(), "a storage failure is an Error, never a failed stage");
    }

    @Test
    void aBrokenContentFailsTheStageWithContentStreamExceptionAndStoresNothing() throws IOException {
        MayBlockStorage storage = new MayBlockStorage();
        DefaultStore store = DefaultStore.of(storage);
        RecordingExecutor blockingWork = new RecordingExecutor();

        CompletableFuture<Status> written = store.writeBytesAsync("k", brokenAfter(10), blockingWork).toCompletableFuture();
        assertFalse(written.isDone(), "a storage that may block reads the content on the blocking executor");
        blockingWork.tasks.get(0).run();

        CompletionException failure = assertThrows(CompletionException.class, written::join);
        ContentStreamException broken = assertInstanceOf(ContentStreamException.class, failure.getCause());
        assertEquals("the client's stream broke", broken.getCause().getMessage());
        assertTrue(storage.get("k").isEmpty());
        assertEquals("the client's stream broke",
                assertThrows(ContentStreamException.class, () -> store.writeBytes("k", brokenAfter(10))).getMessage(),
                "writeBytes throws it unwrapped");
    }

    @Test
    void invalidBytesWritesAreAnErrorNeverAFailedStage() throws IOException {
        QueuingStorage queuing = new QueuingStorage();
        DefaultStore store = DefaultStore.of(queuing);
        assertEquals(Status.ERROR, store.writeBytesAsync("", new ByteArrayInputStream(new byte[1]), Runnable::run)
                .toCompletableFuture().getNow(null));
        assertEquals(Status.ERROR, store.writeBytesAsync("k", null, Runnable::run).toCompletableFuture().getNow(null));
        assertTrue(queuing.queued.isEmpty(), "never reached the storage");

        MemoryStorage memory = new MemoryStorage();
        DefaultStore limited = DefaultStore.builder(memory).limits(StoreLimits.builder().maxValueBytes(4).build()).build();
        assertEquals(Status.ERROR, limited.writeBytesAsync("k", new ByteArrayInputStream(new byte[5]), Runnable::run)
                .toCompletableFuture().join(), "content over the limit");
        assertTrue(memory.get("k").isEmpty());
    }

    @Test
    void aStoreOfItsOwnWritesBytesOnTheBlockingExecutorOrRightHereIfItNeverBlocks() {
        List<String> calledOn = new ArrayList<>();
        Store own = new Store() {
            @Override
            public Status writeString(String key, String value) {
                return Status.SUCCESS;
            }

            @Override
            public Status writeBytes(String key, InputStream content) {
                calledOn.add(Thread.currentThread().getName());
                return Status.SUCCESS;
            }
        };
        RecordingExecutor blockingWork = new RecordingExecutor();
        CompletableFuture<Status> written = own.writeBytesAsync("k", new ByteArrayInputStream(new byte[1]), blockingWork)
                .toCompletableFuture();
        assertTrue(calledOn.isEmpty(), "a store that may block is not called on the caller's thread");
        blockingWork.tasks.get(0).run();
        assertSame(Status.SUCCESS, written.join());

        DefaultStore neverBlocks = DefaultStore.of(new MemoryStorage());
        CompletableFuture<Status> broken = neverBlocks.writeBytesAsync("k", brokenAfter(0), blockingWork)
                .toCompletableFuture();
        assertTrue(broken.isCompletedExceptionally(), "written right here: the content's failure fails the stage");
        assertEquals(1, blockingWork.tasks.size(), "nothing more handed over");
    }

    /** A content whose stream fails after {@code bytes} bytes, as a decoder finding invalid input does. */
    private static InputStream brokenAfter(int bytes) {
        return new SequenceInputStream(new ByteArrayInputStream(new byte[bytes]), new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("the client's stream broke");
            }
        });
    }
}
