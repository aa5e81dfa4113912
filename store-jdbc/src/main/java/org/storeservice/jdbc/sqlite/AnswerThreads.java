package org.storeservice.jdbc.sqlite;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.IntConsumer;
import org.storeservice.jdbc.internal.WriteQueue.Pending;

/**
 * The threads that answer the callers of committed batches, so that the writer starts on the next batch at once.
 * Answering a write is mostly the server's work for it (completing its future runs the dependents: encoding the
 * response, writing it to the socket), about as much CPU per write as SQLite's commit of it; with one answering
 * thread that thread, not SQLite, capped the durable rate on many cores (issue 47). So there are several, and the
 * writes of a key are always answered by the same one, in the order they were handed to it: a key's answers keep
 * their commit order. Only a lone write may be answered by the writer itself, and only once its key's thread has
 * answered all it was given. (An item of several writes, a {@code writeAll}, goes with its first key: its order is
 * kept with that key's writes only.)
 *
 * <p>Used by the writer thread only, except {@link #close}, which it calls as it ends.
 */
final class AnswerThreads {
    /** Answering threads for this machine: enough that none of them caps the writer on many cores, at least two. */
    static int defaultCount() {
        return Math.max(2, Math.min(8, Runtime.getRuntime().availableProcessors() / 2));
    }

    private final ExecutorService[] threads;
    /** Per thread: the batches handed to it and not yet answered. Incremented by the writer only. */
    private final AtomicInteger[] backlog;

    /** {@code count} (1 to 64) threads named {@code store-answers-NAME-I}. */
    AnswerThreads(String name, int count) {
        if (count < 1 || count > 64) {
            throw new IllegalArgumentException("1 to 64 answering threads, not " + count);
        }
        threads = new ExecutorService[count];
        backlog = new AtomicInteger[count];
        for (int i = 0; i < count; i++) {
            String threadName = "store-answers-" + name + "-" + i;
            threads[i] = Executors.newSingleThreadExecutor(task -> {
                Thread answering = new Thread(task, threadName);
                answering.setDaemon(true);
                return answering;
            });
            backlog[i] = new AtomicInteger();
        }
    }

    /**
     * Completes each of {@code committed}'s futures with its result, on the thread of its key. A lone write whose
     * thread has nothing left to answer is answered here if {@code writerIdle} (no write waits for the writer):
     * handing it over would cost a wake-up, and nothing answered earlier for its key can still be waiting. Under load
     * it is handed over like the others: its answer costs about as much CPU as its commit, time the next batch waits.
     */
    void answer(List<Pending> committed, List<Boolean> results, boolean writerIdle) {
        give(committed, i -> committed.get(i).result().complete(results.get(i)), writerIdle);
    }

    /**
     * Fails each of {@code failed}'s futures with {@code failure} of {@code cause} (a new exception each), the way
     * {@link #answer} gives answers, so that a key's failure comes after its earlier answers.
     */
    void fail(List<Pending> failed, Function<Throwable, ? extends Throwable> failure, Throwable cause,
            boolean writerIdle) {
        give(failed, i -> failed.get(i).result().completeExceptionally(failure.apply(cause)), writerIdle);
    }

    /** Runs {@code answerOne} for each index of {@code writes} on the thread of that write's key (see above). */
    private void give(List<Pending> writes, IntConsumer answerOne, boolean writerIdle) {
        if (writerIdle && writes.size() == 1 && backlog[threadOf(writes.get(0))].get() == 0) {
            answerOne.accept(0);
            return;
        }
        int[] threadOf = new int[writes.size()];
        long handed = 0; // a bit per thread with writes in this batch
        for (int i = 0; i < threadOf.length; i++) {
            threadOf[i] = threadOf(writes.get(i));
            handed |= 1L << threadOf[i];
        }
        for (int thread = 0; thread < threads.length; thread++) {
            if ((handed & (1L << thread)) != 0) {
                handOver(thread, threadOf, answerOne);
            }
        }
    }

    private void handOver(int thread, int[] threadOf, IntConsumer answerOne) {
        Runnable answering = () -> {
            for (int i = 0; i < threadOf.length; i++) {
                if (threadOf[i] == thread) {
                    answerOne.accept(i);
                }
            }
        };
        backlog[thread].incrementAndGet();
        try {
            threads[thread].execute(() -> {
                try {
                    answering.run();
                } finally {
                    backlog[thread].decrementAndGet();
                }
            });
        } catch (RuntimeException | Error e) {
            // Rejected after close(), which the writer calls only once it has answered its last batch, or the
            // thread could not be started: the answers are given here rather than never.
            backlog[thread].decrementAndGet();
            answering.run();
        }
    }

    /** The thread that answers {@code pending}: by its (first) key's hash, the same for every write of that key. */
    private int threadOf(Pending pending) {
        if (pending.requests().isEmpty()) {
            return 0;
        }
        int hash = pending.requests().get(0).key().hashCode();
        return Math.floorMod(hash ^ (hash >>> 16), threads.length);
    }

    /**
     * Stops the threads once they have given every answer handed to them; the future completes then (at once if
     * they had stopped already).
     */
    CompletableFuture<Void> close() {
        CompletableFuture<?>[] drained = new CompletableFuture<?>[threads.length];
        for (int i = 0; i < threads.length; i++) {
            CompletableFuture<Void> done = new CompletableFuture<>();
            try {
                threads[i].execute(() -> done.complete(null)); // runs after every answer handed to it
                threads[i].shutdown();
            } catch (RejectedExecutionException e) {
                done.complete(null);
            }
            drained[i] = done;
        }
        return CompletableFuture.allOf(drained);
    }
}
