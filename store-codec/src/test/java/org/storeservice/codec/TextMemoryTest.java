package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;
import org.storeservice.api.Status;
import org.storeservice.api.Store;
import org.storeservice.testkit.wire.QueuingStore;

/**
 * {@link TextMemory}: large bodies that may be WriteStrings wait for their share of the text memory before they are
 * decoded, so the values held by writes the store has not answered stay within it however many clients send them;
 * small bodies and WriteBytes never wait.
 */
class TextMemoryTest {
    private static final String VALUE = "v".repeat(200 * 1024);
    private static final long LARGE_BODY = Fixture.soap11(Fixture.writeString("k00", VALUE))
            .getBytes(StandardCharsets.UTF_8).length;

    @Test
    void writeStringsPastTheTextMemoryWaitBeforeTheyAreDecodedUntilEarlierOnesAreAnswered() throws Exception {
        long capacity = 3 * TextMemory.HEAP_PER_BODY_BYTE * LARGE_BODY; // three large WriteStrings at a time
        QueuingStore store = new QueuingStore();
        StoreCodec codec = StoreCodec.builder(store)
                .limits(CodecLimits.builder().textMemoryBytes(capacity).build()).build();
        int clients = 8;
        ExecutorService threads = Executors.newFixedThreadPool(clients);
        try {
            List<Future<CodecResponse>> answers = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                CodecRequest request = largeWriteString(String.format("k%02d", i));
                // Each on a thread that may block, as a server runs a body too large to answer inline.
                answers.add(threads.submit(() -> codec.handleAsync(request, Runnable::run).toCompletableFuture().get()));
            }
            awaitTrue(() -> store.queued().size() == 3, "three WriteStrings reach the store");
            awaitTrue(() -> waitingThreads() == clients - 3, "the other five wait for text memory");
            assertEquals(3, store.queued().size(), "none past the text memory reaches the store");
            assertEquals(capacity, codec.textMemoryReserved());

            int completed = 0;
            while (completed < clients) {
                int reached = completed + 1;
                awaitTrue(() -> store.queued().size() >= reached, "the next WriteString reaches the store");
                assertTrue(store.queued().size() <= completed + 3,
                        "at most three unanswered: " + store.queued().size() + " after " + completed + " answers");
                store.queued().get(completed).complete(Status.SUCCESS);
                completed++;
            }
            for (Future<CodecResponse> answer : answers) {
                assertTrue(Fixture.body(answer.get(10, TimeUnit.SECONDS)).contains(">Success<"));
            }
            assertEquals(0, codec.textMemoryReserved(), "every reservation given back");
        } finally {
            store.queued().forEach(write -> write.complete(Status.ERROR));
            threads.shutdownNow();
        }
    }

    @Test
    void aRequestLargerThanTheWholeTextMemoryGoesAlone() {
        QueuingStore store = new QueuingStore();
        StoreCodec codec = StoreCodec.builder(store)
                .limits(CodecLimits.builder().textMemoryBytes(LARGE_BODY).build()).build();

        CompletableFuture<CodecResponse> answer = codec.handleAsync(largeWriteString("k00"), Runnable::run)
                .toCompletableFuture();

        assertEquals(1, store.queued().size(), "decoded although it wants four times the capacity");
        store.queued().get(0).complete(Status.SUCCESS);
        assertTrue(Fixture.body(answer.join()).contains(">Success<"), Fixture.body(answer.join()));
        assertEquals(0, codec.textMemoryReserved());
    }

    @Test
    void anErrorThrownByTheStoreGivesTheTextMemoryBack() {
        Store overflowing = new Store() {
            @Override
            public Status writeString(String key, String value) {
                throw new StackOverflowError("the store's");
            }

            @Override
            public Status writeBytes(String key, InputStream content) {
                throw new AssertionError("not called");
            }

            @Override
            public boolean writesNeverBlock() {
                return true; // called right in handleAsync, as a store that answers at once is
            }
        };
        StoreCodec codec = StoreCodec.builder(overflowing).build();

        assertThrows(StackOverflowError.class, () -> codec.handleAsync(largeWriteString("k00"), Runnable::run));

        assertEquals(0, codec.textMemoryReserved(), "nothing kept by a request that ended");
    }

    @Test
    void anErrorThrownWhileDecodingGivesTheTextMemoryBack() {
        StoreCodec codec = StoreCodec.builder(new QueuingStore()).build();
        InputStream failing = new InputStream() {
            @Override
            public int read() {
                throw new OutOfMemoryError("the test's");
            }
        };
        List<CodecRequest> requests = List.of(
                Fixture.post(Fixture.PATH, new byte[0]).body(failing).bodyLength(LARGE_BODY)
                        .header("Content-Type", "text/xml; charset=utf-8")
                        .header("SOAPAction", "\"" + Fixture.NS + "WriteString\"").build(),
                Fixture.post(Fixture.PATH + "/WriteString", new byte[0]).body(failing).bodyLength(LARGE_BODY)
                        .header("Content-Type", "application/x-www-form-urlencoded").build());

        for (CodecRequest request : requests) {
            assertThrows(OutOfMemoryError.class, () -> codec.handleAsync(request, Runnable::run), request.path());
            assertEquals(0, codec.textMemoryReserved(), request.path());
        }
    }

    @Test
    void onlyLargeBodiesThatMayBeWriteStringsReserve() {
        long inline = 128 * 1024;
        long max = 8L << 20;
        byte[] large = new byte[(int) inline + 1];
        assertEquals(TextMemory.HEAP_PER_BODY_BYTE * large.length,
                TextMemory.heapFor(Fixture.post(Fixture.PATH, large).bodyLength(large.length).build(), inline, max),
                "a large SOAP body without an action");
        assertEquals(TextMemory.HEAP_PER_BODY_BYTE * large.length,
                TextMemory.heapFor(Fixture.soap11Post("WriteString", "x").bodyLength(large.length).build(), inline, max));
        assertEquals(TextMemory.HEAP_PER_BODY_BYTE * max,
                TextMemory.heapFor(Fixture.post(Fixture.PATH + "/WriteString", "x").build(), inline, max),
                "no length known: the largest body the codec accepts");
        assertEquals(TextMemory.HEAP_PER_BODY_BYTE * large.length, TextMemory.heapFor(
                Fixture.post(Fixture.PATH, "x").header("Content-Length", Integer.toString(large.length)).build(),
                inline, max), "the declared Content-Length when the adapter gives none");

        assertEquals(0, TextMemory.heapFor(Fixture.post(Fixture.PATH, "x").bodyLength(inline).build(), inline, max),
                "a body answered inline");
        assertEquals(0, TextMemory.heapFor(Fixture.soap11Post("WriteBytes", "x").bodyLength(large.length).build(),
                inline, max), "SOAP 1.1 WriteBytes");
        assertEquals(0, TextMemory.heapFor(Fixture.post(Fixture.PATH, "x").bodyLength(large.length)
                .header("Content-Type", "application/soap+xml; charset=utf-8; action=\"http://tempuri.org/WriteBytes\"")
                .build(), inline, max), "SOAP 1.2 WriteBytes");
        assertEquals(0, TextMemory.heapFor(Fixture.post(Fixture.PATH + "/WriteBytes", "x").bodyLength(large.length)
                .build(), inline, max), "HTTP POST WriteBytes");
        assertEquals(0, TextMemory.heapFor(Fixture.get(Fixture.PATH + "/WriteString", "key=k&value=v").build(),
                inline, max), "HTTP GET has no body");
    }

    private static CodecRequest largeWriteString(String key) {
        byte[] body = Fixture.soap11(Fixture.writeString(key, VALUE)).getBytes(StandardCharsets.UTF_8);
        return Fixture.post(Fixture.PATH, body).bodyLength(body.length)
                .header("Content-Type", "text/xml; charset=utf-8")
                .header("SOAPAction", "\"" + Fixture.NS + "WriteString\"").build();
    }

    /** Threads of this test's pool parked in {@link TextMemory#acquire}. */
    private static long waitingThreads() {
        return Thread.getAllStackTraces().entrySet().stream()
                .filter(e -> e.getKey().getState() == Thread.State.WAITING)
                .filter(e -> List.of(e.getValue()).stream().anyMatch(frame ->
                        frame.getClassName().equals(TextMemory.class.getName()) && frame.getMethodName().equals("acquire")))
                .count();
    }

    /** Polls {@code condition} every 10 ms, for at most 10 s (a bound, not a timing assertion). */
    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        for (int i = 0; i < 1_000 && !condition.getAsBoolean(); i++) {
            Thread.sleep(10);
        }
        assertTrue(condition.getAsBoolean(), what);
    }
}
