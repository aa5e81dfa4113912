package org.storeservice.jdbc.sqlite;

import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.function.IntConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.api.storage.StorageException;
import org.storeservice.jdbc.internal.WriteQueue.Pending;

/**
 * The threads that answer the callers of committed batches, so that the writer starts on the next batch at once.
 * Answering a write is mostly the server's work for it (completing its future runs the dependents: encoding the
 * response, writing it to the socket), about as much CPU per write as SQLite's commit of it; with one answering
 * thread that thread, not SQLite, capped the durable rate on many cores (issue 47). So there are several, and the
 * writes of a key are always answered by the same one, in the order they were handed to it: a key's answers keep
 * their commit order, failures included. Only a lone write may be answered by the writer itself, and only once its
 * key's thread has answered all it was given. (An item of several writes, a {@code writeAll}, goes with its first
 * key: its order is kept with that key's writes only.)
 *
 * <p>The threads start with the writer, not on first use: a thread that cannot start fails the storage's opening,
 * never a later answer or its close (issue 55). Each answer is given on its own, so one that throws never keeps the
 * others of its batch from theirs. Used by the writer thread only, except {@link #close}, which it calls as it ends.
 */
final class AnswerThreads {
    private static final Logger log = LoggerFactory.getLogger(AnswerThreads.class);

    /** Answering threads for this machine: enough that none of them caps the writer on many cores, at least two. */
    static int defaultCount() {
        return Math.max(2, Math.min(8, Runtime.getRuntime().availableProcessors() / 2));
    }

    private final AnsweringThread[] threads;
    /** Set by {@link #close}: answers handed over after it are given on the calling thread. */
    private volatile boolean closed;

    /** {@code count} (1 to 64) threads named {@code store-answers-NAME-I}, started now. */
    AnswerThreads(String name, int count) {
        this(name, count, Thread::new);
    }

    /**
     * {@code count} threads from {@code factory}, started now; if one cannot be made or started, those started are
     * stopped and the failure is thrown.
     */
    AnswerThreads(String name, int count, ThreadFactory factory) {
        if (count < 1 || count > 64) {
            throw new IllegalArgumentException("1 to 64 answering threads, not " + count);
        }
        threads = new AnsweringThread[count];
        try {
            for (int i = 0; i < count; i++) {
                threads[i] = new AnsweringThread(factory, "store-answers-" + name + "-" + i);
            }
        } catch (RuntimeException | Error e) {
            close();
            throw e;
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
     * {@link #answer} gives answers, so that a key's failure comes after its earlier answers. If {@code failure}
     * throws, the write fails all the same.
     */
    void fail(List<Pending> failed, Function<Throwable, ? extends Throwable> failure, Throwable cause,
            boolean writerIdle) {
        give(failed, i -> {
            Throwable answer;
            try {
                answer = failure.apply(cause);
            } catch (Throwable e) { // an OutOfMemoryError building the message: the write fails all the same
                answer = undescribed(e);
            }
            failed.get(i).result().completeExceptionally(answer);
        }, writerIdle);
    }

    /** A failure that reads nothing of {@code e} (whose message may throw again); {@code e} if even that fails. */
    private static Throwable undescribed(Throwable e) {
        try {
            return new StorageException("Write failed; so did describing why", e);
        } catch (Throwable again) {
            return e;
        }
    }

    /** Runs {@code answerOne} for each index of {@code writes} on the thread of that write's key (see above). */
    private void give(List<Pending> writes, IntConsumer answerOne, boolean writerIdle) {
        if (writerIdle && writes.size() == 1 && threads[threadOf(writes.get(0))].backlog.get() == 0) {
            answerSafely(answerOne, 0);
            return;
        }
        try {
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
        } catch (Throwable t) {
            // No memory to hand them over: the writer claimed them, so they are answered here rather than never (an
            // answer given twice keeps its first).
            for (int i = 0; i < writes.size(); i++) {
                answerSafely(answerOne, i);
            }
        }
    }

    private void handOver(int thread, int[] threadOf, IntConsumer answerOne) {
        Runnable answering = () -> {
            for (int i = 0; i < threadOf.length; i++) {
                if (threadOf[i] == thread) {
                    answerSafely(answerOne, i);
                }
            }
        };
        if (closed || !threads[thread].give(answering)) {
            // After close(), which the writer calls only once it has answered its last batch: given here rather
            // than never.
            answering.run();
        }
    }

    /** Gives one answer; whatever it throws is logged, and never keeps the next answer from being given. */
    private static void answerSafely(IntConsumer answerOne, int index) {
        try {
            answerOne.accept(index);
        } catch (Throwable t) {
            try {
                log.error("Answering a write failed", t);
            } catch (Throwable again) {
                // the same memory pressure again: the other answers still go on
            }
        }
    }

    /** The thread that answers {@code pending}: by its (first) key's hash, the same for every write of that key. */
    private int threadOf(Pending pending) {
        if (pending.requests().isEmpty()) {
            return 0;
        }
        return threadOf(pending.requests().get(0).key(), threads.length);
    }

    /** Which of {@code count} threads answers the writes of {@code key}. */
    static int threadOf(String key, int count) {
        int hash = key.hashCode();
        return Math.floorMod(hash ^ (hash >>> 16), count);
    }

    /**
     * Stops the threads once they have given every answer handed to them; the future completes then (at once if
     * they had stopped already). Never throws: a thread that cannot be told counts as stopped.
     */
    CompletableFuture<Void> close() {
        closed = true;
        CompletableFuture<?>[] drained = new CompletableFuture<?>[threads.length];
        for (int i = 0; i < threads.length; i++) {
            drained[i] = threads[i] == null ? CompletableFuture.completedFuture(null) : threads[i].stop();
        }
        return CompletableFuture.allOf(drained);
    }

    /**
     * One answering thread: runs what it is given in order, each task on its own (a task that throws does not end
     * the thread), until told to stop.
     */
    private static final class AnsweringThread {
        private static final Runnable STOP = () -> { };

        private final BlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
        /** Tasks given and not yet run. */
        final AtomicInteger backlog = new AtomicInteger();
        /** Completed once the thread has run its last task. */
        private final CompletableFuture<Void> stopped = new CompletableFuture<>();

        AnsweringThread(ThreadFactory factory, String name) {
            Thread thread = factory.newThread(this::run);
            if (thread == null) {
                throw new IllegalStateException("No thread for " + name);
            }
            thread.setName(name);
            thread.setDaemon(true); // an unclosed storage must not keep the JVM alive
            thread.start();
        }

        /** Queues {@code task}; {@code false} if this thread has ended. */
        boolean give(Runnable task) {
            if (stopped.isDone()) {
                return false;
            }
            backlog.incrementAndGet();
            tasks.add(() -> {
                try {
                    task.run();
                } finally {
                    backlog.decrementAndGet();
                }
            });
            return true;
        }

        CompletableFuture<Void> stop() {
            try {
                tasks.add(STOP);
            } catch (Throwable e) {
                stopped.complete(null); // cannot be told: nothing waits for it
            }
            return stopped;
        }

        private void run() {
            try {
                for (Runnable task; (task = take()) != STOP; ) {
                    try {
                        task.run();
                    } catch (Throwable t) {
                        // answerSafely logged what an answer threw; a throw here is not worth ending the thread
                    }
                }
            } finally {
                stopped.complete(null);
                // Ended by an Error outside a task: what is still queued is run here rather than never.
                for (Runnable task; (task = tasks.poll()) != null; ) {
                    try {
                        task.run();
                    } catch (Throwable t) {
                        // as above
                    }
                }
            }
        }

        private Runnable take() {
            while (true) {
                try {
                    return tasks.take();
                } catch (InterruptedException e) {
                    // nothing here interrupts an answering thread; answers handed to it must still be given
                }
            }
        }
    }
}
