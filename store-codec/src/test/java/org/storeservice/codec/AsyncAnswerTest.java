package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import org.junit.jupiter.api.Test;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.Status;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.testkit.wire.QueuingStore;

/**
 * {@link StoreCodec#handleAsync}: the request is decoded on the caller's thread, a WriteString is handed to the store
 * without waiting, the answer comes when the store's write completes and is the one {@link StoreCodec#handle} gives,
 * and a store call that may block goes to the blocking executor, never the caller's thread.
 */
class AsyncAnswerTest {
    private final QueuingStore store = new QueuingStore();
    private final List<CompletedRequest> observed = new ArrayList<>();
    private final StoreCodec codec = StoreCodec.builder(store).observer(observed::add).build();
    private final StoreCodec reference = StoreCodec.builder(DefaultStore.of(new MemoryStorage())).build();
    private final List<Runnable> blockingTasks = new ArrayList<>();
    private final Executor blockingWork = blockingTasks::add;

    @Test
    void soapWriteStringIsAnsweredWhenTheQueuedWriteCompletesExactlyAsHandleAnswers() {
        String envelope = Fixture.soap11(Fixture.writeString("k", "v"));

        CompletableFuture<CodecResponse> answer = codec.handleAsync(Fixture.soap11Post("WriteString", envelope).build(),
                blockingWork).toCompletableFuture();

        assertEquals(1, store.queued().size(), "decoded and handed to the store before handleAsync returned");
        assertFalse(answer.isDone());
        assertTrue(observed.isEmpty(), "observed once answered, not before");
        store.queued().get(0).complete(Status.SUCCESS);
        assertSameAnswer(reference.handle(Fixture.soap11Post("WriteString", envelope).build()), answer.join());
        assertEquals(Outcome.SUCCESS, observed.get(0).kind().outcome());
        assertTrue(blockingTasks.isEmpty(), "nothing needed a thread that may block");
    }

    @Test
    void httpGetAndPostWriteStringAreAnsweredWhenTheQueuedWriteCompletes() {
        CompletableFuture<CodecResponse> get = codec.handleAsync(
                Fixture.get(Fixture.PATH + "/WriteString", "key=g&value=v").build(), blockingWork).toCompletableFuture();
        CompletableFuture<CodecResponse> post = codec.handleAsync(Fixture.post(Fixture.PATH + "/WriteString", "key=p&value=v")
                .header("Content-Type", "application/x-www-form-urlencoded").build(), blockingWork).toCompletableFuture();

        assertEquals(2, store.queued().size());
        assertFalse(get.isDone() || post.isDone());
        store.queued().get(0).complete(Status.SUCCESS);
        store.queued().get(1).complete(Status.ERROR);
        assertTrue(Fixture.body(get.join()).contains(">Success</Status>"), Fixture.body(get.join()));
        assertTrue(Fixture.body(post.join()).contains(">Error</Status>"), Fixture.body(post.join()));
        assertTrue(blockingTasks.isEmpty());
    }

    @Test
    void writeBytesToAStoreThatMayBlockRunsOnTheBlockingExecutor() throws Exception {
        String envelope = Fixture.soap12(Fixture.writeBytes("b", "aGk="));

        CompletableFuture<CodecResponse> answer = codec.handleAsync(Fixture.soap12Post(envelope).build(), blockingWork)
                .toCompletableFuture();

        assertEquals(1, blockingTasks.size(), "handed to the blocking executor");
        assertFalse(answer.isDone());
        assertTrue(store.storage().get("b").isEmpty(), "not written on the caller's thread");
        blockingTasks.get(0).run();
        assertSameAnswer(reference.handle(Fixture.soap12Post(envelope).build()), answer.join());
        assertArrayEquals("hi".getBytes(), store.storage().get("b").orElseThrow().bytes());
    }

    @Test
    void aFaultNeedsNoStoreAndIsAnsweredAtOnce() {
        String broken = "<soap:Envelope xmlns:soap=\"" + Fixture.SOAP11 + "\"><soap:Body><WriteString";

        CompletableFuture<CodecResponse> answer = codec.handleAsync(Fixture.soap11Post("WriteString", broken).build(),
                blockingWork).toCompletableFuture();

        assertTrue(answer.isDone());
        assertSameAnswer(reference.handle(Fixture.soap11Post("WriteString", broken).build()), answer.join());
        assertTrue(store.queued().isEmpty() && blockingTasks.isEmpty());
    }

    @Test
    void aQueuedWriteThatFailsIsTheFaultAStoreThatThrowsGetsAndAnErrorIsAPlain500() {
        String envelope = Fixture.soap11(Fixture.writeString("k", "v"));
        CompletableFuture<CodecResponse> failed = codec.handleAsync(Fixture.soap11Post("WriteString", envelope).build(),
                blockingWork).toCompletableFuture();
        CompletableFuture<CodecResponse> broken = codec.handleAsync(Fixture.soap11Post("WriteString", envelope).build(),
                blockingWork).toCompletableFuture();

        store.queued().get(0).completeExceptionally(new IllegalStateException("boom <1>"));
        store.queued().get(1).completeExceptionally(new OutOfMemoryError("thrown by the test"));

        assertEquals(500, failed.join().status());
        assertTrue(Fixture.body(failed.join()).contains(
                "<faultstring>Server was unable to process request. ---&gt; boom &lt;1&gt;</faultstring>"),
                Fixture.body(failed.join()));
        CodecResponse internal = broken.join(); // never a failed stage, whatever the store's failure
        assertEquals(500, internal.status());
        assertFalse(Fixture.body(internal).contains("thrown by the test"), "no internals to the client");
    }

    private static void assertSameAnswer(CodecResponse expected, CodecResponse actual) {
        assertEquals(expected.status(), actual.status());
        assertEquals(expected.headers(), actual.headers());
        assertArrayEquals(expected.bodyBytes(), actual.bodyBytes());
    }
}
