package org.storeservice.jdbc.internal;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

/**
 * A write path whose writes wait in a {@link WriteQueue} for the engine's own consumer threads (SQLite's writer,
 * PostgreSQL's lanes), which take them a batch at a time: what both engines' writers share.
 */
public abstract class QueuedWritePath implements WritePath {
    /** The writes waiting; the engine's consumers take them. */
    protected final WriteQueue queue;

    protected QueuedWritePath(WriteQueue queue) {
        this.queue = queue;
    }

    @Override
    public boolean write(WriteRequest request) throws IOException {
        return queue.write(List.of(request));
    }

    /** The writes go in as one item of the queue, so they commit in one transaction, and fail or succeed together. */
    @Override
    public void writeAll(List<WriteRequest> requests) throws IOException {
        queue.write(requests);
    }

    /**
     * Queues the write and returns at once; a consumer completes the result once the write is committed, so no thread
     * waits for it. A full queue is waited out on {@code blockingWork}, not here: that is the backpressure.
     */
    @Override
    public CompletableFuture<Boolean> writeAsync(WriteRequest request, Executor blockingWork) {
        return queue.writeAsync(request, () -> WritePath.super.writeAsync(request, blockingWork));
    }
}
