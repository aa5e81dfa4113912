package org.storeservice.jdbc.sqlite;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.jdbc.internal.WriteQueue.Pending;
import org.storeservice.jdbc.internal.WriteRequest;

class AnswerThreadsTest {
    private static final Duration HANG_GUARD = Duration.ofMinutes(1);

    private static Pending write(String key) {
        return new Pending(List.of(new WriteRequest(key, EntryKind.TEXT, "v", null, OverwritePolicy.REPLACE,
                Instant.now())));
    }

    /**
     * A write of {@code key} whose answer holds the thread that gives it until {@code release}, then adds "first" to
     * {@code order}.
     */
    private static Pending holdingItsThread(String key, CountDownLatch release, List<String> order) {
        Pending write = write(key);
        write.result().thenRun(() -> {
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            order.add("first");
        });
        return write;
    }

    @Test
    void aLoneWriteIsAnsweredOnTheCallingThreadWhenIdleAndItsThreadHasNothingLeft() {
        AnswerThreads answers = new AnswerThreads("lone", 2);
        Pending lone = write("k");
        List<String> answeredOn = new ArrayList<>();
        lone.result().thenRun(() -> answeredOn.add(Thread.currentThread().getName()));

        answers.answer(List.of(lone), List.of(true), true);

        assertEquals(List.of(Thread.currentThread().getName()), answeredOn);
        answers.close().join();
    }

    @Test
    void aLoneWriteIsHandedOverWhileWritesWaitForTheWriter() {
        AnswerThreads answers = new AnswerThreads("busy", 1);
        Pending lone = write("k");
        List<String> answeredOn = Collections.synchronizedList(new ArrayList<>());
        lone.result().thenRun(() -> answeredOn.add(Thread.currentThread().getName()));

        answers.answer(List.of(lone), List.of(true), false);

        answers.close().join();
        assertEquals(List.of("store-answers-busy-0"), answeredOn);
    }

    /** A lone write of a key whose earlier answers are still being given waits behind them: a key's order holds. */
    @Test
    void aLoneWriteWaitsBehindTheAnswersHandedOverBeforeIt() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            AnswerThreads answers = new AnswerThreads("behind", 1);
            CountDownLatch release = new CountDownLatch(1);
            List<String> order = Collections.synchronizedList(new ArrayList<>());
            Pending first = holdingItsThread("k", release, order);
            Pending second = write("other");
            answers.answer(List.of(first, second), List.of(true, true), true);
            Pending lone = write("k");
            lone.result().thenRun(() -> order.add("lone"));

            try {
                answers.answer(List.of(lone), List.of(true), true);

                assertFalse(lone.result().isDone(), "not answered ahead of the batch still being answered");
            } finally {
                release.countDown();
            }
            answers.close().join();
            assertEquals(List.of("first", "lone"), order);
            assertTrue(second.result().join());
        });
    }

    @Test
    void answersHandedOverAfterCloseAreGivenOnTheCallingThread() {
        AnswerThreads answers = new AnswerThreads("closed", 2);
        answers.close().join();
        Pending a = write("a");
        Pending b = write("b");
        List<String> answeredOn = Collections.synchronizedList(new ArrayList<>());
        a.result().thenRun(() -> answeredOn.add(Thread.currentThread().getName()));
        b.result().thenRun(() -> answeredOn.add(Thread.currentThread().getName()));

        answers.answer(List.of(a, b), List.of(true, false), true);

        assertTrue(a.result().join());
        assertFalse(b.result().join());
        String caller = Thread.currentThread().getName();
        assertEquals(List.of(caller, caller), answeredOn);
    }

    /** A failure is given like an answer: after the answers its key's thread was given before it. */
    @Test
    void aFailureWaitsBehindTheAnswersOfItsKeyAndEachGetsItsOwnException() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            AnswerThreads answers = new AnswerThreads("failing", 1);
            CountDownLatch release = new CountDownLatch(1);
            List<String> order = Collections.synchronizedList(new ArrayList<>());
            Pending first = holdingItsThread("k", release, order);
            answers.answer(List.of(first, write("other")), List.of(true, true), true);
            Pending failedK = write("k");
            Pending failedJ = write("j");
            failedK.result().whenComplete((stored, failure) -> order.add("failed"));
            IllegalStateException cause = new IllegalStateException("disk");
            try {
                answers.fail(List.of(failedK, failedJ), RuntimeException::new, cause, true);

                assertFalse(failedK.result().isDone(), "not failed ahead of the answer still being given");
            } finally {
                release.countDown();
            }
            answers.close().join();
            assertEquals(List.of("first", "failed"), order);
            Throwable k = failedK.result().handle((stored, failure) -> failure).join();
            Throwable j = failedJ.result().handle((stored, failure) -> failure).join();
            assertTrue(k != j && k.getCause() == cause && j.getCause() == cause, "one exception each, same cause");
        });
    }

    /**
     * One answer that throws (here: building a write's failure runs out of memory) is that write's alone: the other
     * writes handed over with it are answered all the same, and the throwing one fails too.
     */
    @Test
    void anAnswerThatThrowsNeverStrandsTheOtherWritesOfItsTask() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            AnswerThreads answers = new AnswerThreads("throwing", 1);
            Pending a = write("a");
            Pending b = write("b");
            Pending c = write("c");
            AtomicInteger built = new AtomicInteger();
            Function<Throwable, RuntimeException> failure = cause -> {
                if (built.incrementAndGet() == 1) {
                    throw new OutOfMemoryError("thrown by the test while building the failure");
                }
                return new RuntimeException(cause);
            };

            answers.fail(List.of(a, b, c), failure, new IllegalStateException("disk"), false);

            answers.close().join();
            for (Pending write : List.of(a, b, c)) {
                assertTrue(write.result().isCompletedExceptionally(), "answered: " + write.requests().get(0).key());
            }
            assertEquals(3, built.get());
        });
    }

    /** The threads start with the writer: one that cannot start refuses the whole, and those started stop. */
    @Test
    void aThreadThatCannotStartIsRefusedAtOnceAndThoseStartedStop() {
        assertTimeoutPreemptively(HANG_GUARD, () -> {
            AtomicInteger made = new AtomicInteger();
            ThreadFactory secondCannotStart = task -> made.incrementAndGet() == 1 ? new Thread(task) : new Thread(task) {
                @Override
                public synchronized void start() {
                    throw new OutOfMemoryError("unable to create native thread: thrown by the test");
                }
            };
            assertThrows(OutOfMemoryError.class, () -> new AnswerThreads("refused", 2, secondCannotStart));
            assertEquals(2, made.get(), "both made at once, not on first use");
            while (Thread.getAllStackTraces().keySet().stream()
                    .anyMatch(thread -> thread.isAlive() && thread.getName().startsWith("store-answers-refused-"))) {
                Thread.sleep(5); // the first thread stops; the hang guard fails one that stays
            }
        });
    }

    @Test
    void refusesACountOutsideOneToSixtyFour() {
        assertThrows(IllegalArgumentException.class, () -> new AnswerThreads("none", 0));
        assertThrows(IllegalArgumentException.class, () -> new AnswerThreads("many", 65));
    }
}
