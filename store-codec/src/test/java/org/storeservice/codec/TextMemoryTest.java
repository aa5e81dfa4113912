package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
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
    /** A wait that never runs out in a test: a test that ends it does so on purpose. */
    private static final long FOREVER = TimeUnit.MINUTES.toNanos(10);
    private static final String VALUE = "v".repeat(200 * 1024);
    private static final long LARGE_BODY = Fixture.soap11(Fixture.writeString("k00", VALUE))
            .getBytes(StandardCharsets.UTF_8).length;

    @Test
    void writeStringsPastTheTextMemoryWaitBeforeTheyAreDecodedUntilEarlierOnesAreAnswered() throws Exception {
        List<CodecRequest> requests = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            requests.add(largeWriteString(String.format("k%02d", i)));
        }
        assertDecodedAtMost(3, requests);
    }

    /**
     * The gate asks routing, not the headers' text: whatever a header mentions, a request that routing sends to
     * WriteString (or whose envelope decides) waits, as the one whose SOAP 1.2 Content-Type carried
     * {@code x-note="not-WriteBytes"} did not.
     */
    @Test
    void largeWriteStringsWaitWhateverTheirHeadersMention() throws Exception {
        Map<String, Function<String, CodecRequest>> variants = new LinkedHashMap<>();
        variants.put("SOAP 1.2, a parameter that mentions WriteBytes", key -> soap12(key,
                "application/soap+xml; charset=utf-8; x-note=\"not-WriteBytes\"").build());
        variants.put("SOAP 1.2, an action of another namespace", key -> soap12(key,
                "application/soap+xml; charset=utf-8; action=\"urn:other:WriteBytes\"").build());
        variants.put("SOAP 1.2, a SOAPAction header it is not routed by", key -> soap12(key,
                "application/soap+xml; charset=utf-8").header("SOAPAction", "\"" + Fixture.NS + "WriteBytes\"").build());
        variants.put("SOAP 1.1, an action parameter it is not routed by", key -> {
            byte[] body = Fixture.soap11(Fixture.writeString(key, VALUE)).getBytes(StandardCharsets.UTF_8);
            return Fixture.post(Fixture.PATH, body).bodyLength(body.length)
                    .header("Content-Type", "text/xml; charset=utf-8; action=\"" + Fixture.NS + "WriteBytes\"")
                    .header("SOAPAction", "\"" + Fixture.NS + "WriteString\"").build();
        });
        variants.put("HTTP POST, a SOAPAction header it is not routed by", key -> {
            byte[] body = ("key=" + key + "&value=" + VALUE).getBytes(StandardCharsets.UTF_8);
            return Fixture.post(Fixture.PATH + "/WriteString", body).bodyLength(body.length)
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .header("SOAPAction", "WriteBytes").build();
        });
        for (Map.Entry<String, Function<String, CodecRequest>> variant : variants.entrySet()) {
            List<CodecRequest> requests = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                requests.add(variant.getValue().apply(String.format("k%02d", i)));
            }
            assertDecodedAtMost(1, requests); // each request wants the whole capacity: room for one
        }
    }

    /**
     * Sends {@code requests} at once, each on a thread of its own, to a codec whose text memory holds {@code atOnce} of
     * them (all of the same size), and answers one WriteString after another: at no time are more than {@code atOnce}
     * decoded and unanswered, and every one is answered Success in the end.
     */
    private static void assertDecodedAtMost(int atOnce, List<CodecRequest> requests) throws Exception {
        long capacity = atOnce * TextMemory.HEAP_PER_BODY_BYTE * requests.get(0).bodyLength();
        QueuingStore store = new QueuingStore();
        StoreCodec codec = StoreCodec.builder(store)
                .limits(CodecLimits.builder().textMemoryBytes(capacity).build()).build();
        int clients = requests.size();
        String what = requests.get(0).path() + " " + requests.get(0).header("Content-Type");
        ExecutorService threads = Executors.newFixedThreadPool(clients);
        try {
            List<Future<CodecResponse>> answers = new ArrayList<>();
            for (CodecRequest request : requests) {
                // Each on a thread that may block, as a server runs a body too large to answer inline.
                answers.add(threads.submit(() -> codec.handleAsync(request, Runnable::run).toCompletableFuture().get()));
            }
            awaitTrue(() -> store.queued().size() == atOnce, atOnce + " WriteStrings reach the store: " + what);
            awaitTrue(() -> codec.textMemoryWaiting() == clients - atOnce, "the others wait for text memory: " + what);
            assertEquals(atOnce, store.queued().size(), "none past the text memory reaches the store: " + what);
            assertEquals(capacity, codec.textMemoryReserved(), what);

            int completed = 0;
            while (completed < clients) {
                int reached = completed + 1;
                awaitTrue(() -> store.queued().size() >= reached, "the next WriteString reaches the store: " + what);
                assertTrue(store.queued().size() <= completed + atOnce, "at most " + atOnce + " unanswered: "
                        + store.queued().size() + " after " + completed + " answers: " + what);
                store.queued().get(completed).complete(Status.SUCCESS);
                completed++;
            }
            for (Future<CodecResponse> answer : answers) {
                assertTrue(Fixture.body(answer.get(10, TimeUnit.SECONDS)).contains("Success<"), what);
            }
            assertEquals(0, codec.textMemoryReserved(), "every reservation given back: " + what);
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
    void aWriteStringThatFindsNoRoomWithinTheWaitIsAnsweredServiceUnavailable() throws Exception {
        QueuingStore store = new QueuingStore();
        StoreCodec codec = StoreCodec.builder(store).limits(CodecLimits.builder()
                .textMemoryBytes(TextMemory.HEAP_PER_BODY_BYTE * LARGE_BODY).textMemoryWaitMillis(1).build()).build();
        ExecutorService threads = Executors.newSingleThreadExecutor();
        try {
            CompletableFuture<CodecResponse> first = codec.handleAsync(largeWriteString("k00"), Runnable::run)
                    .toCompletableFuture();
            assertEquals(1, store.queued().size(), "the first holds all the text memory until answered");

            // On a thread of its own: before the wait was bounded, it waited for ever.
            CodecResponse second = threads.submit(() -> codec.handleAsync(largeWriteString("k01"), Runnable::run)
                    .toCompletableFuture().join()).get(60, TimeUnit.SECONDS);

            assertEquals(503, second.status());
            assertEquals("Service Unavailable", Fixture.body(second));
            assertEquals("text/plain; charset=utf-8", second.header("Content-Type"));
            assertEquals(1, store.queued().size(), "not decoded");
            assertEquals(TextMemory.HEAP_PER_BODY_BYTE * LARGE_BODY, codec.textMemoryReserved(), "the first's alone");
            store.queued().get(0).complete(Status.SUCCESS);
            assertTrue(Fixture.body(first.join()).contains(">Success<"));
            assertEquals(0, codec.textMemoryReserved());
        } finally {
            store.queued().forEach(write -> write.complete(Status.ERROR));
            threads.shutdownNow();
        }
    }

    @Test
    void aLaterRequestThatWouldFitDoesNotOvertakeAnEarlierOne() throws Exception {
        TextMemory memory = new TextMemory(10);
        assertTrue(memory.acquire(6, FOREVER));
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<Boolean> earlier = threads.submit(() -> memory.acquire(6, FOREVER));
            awaitTrue(() -> memory.waiting() == 1, "the earlier one waits: 6 more do not fit");
            Future<Boolean> later = threads.submit(() -> memory.acquire(3, FOREVER));
            awaitTrue(() -> memory.waiting() == 2, "the later one waits behind it, although 3 more fit");
            assertEquals(6, memory.reserved());

            memory.release(6);
            assertTrue(earlier.get(60, TimeUnit.SECONDS));
            assertTrue(later.get(60, TimeUnit.SECONDS));
            assertEquals(9, memory.reserved());
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void waitersAreLetInInTheOrderTheyArrived() throws Exception {
        TextMemory memory = new TextMemory(10);
        assertTrue(memory.acquire(10, FOREVER));
        List<String> letIn = new CopyOnWriteArrayList<>();
        List<String> names = List.of("a", "b", "c", "d");
        ExecutorService threads = Executors.newFixedThreadPool(names.size());
        try {
            for (String name : names) {
                int before = memory.waiting();
                threads.submit(() -> {
                    memory.acquire(6, FOREVER);
                    letIn.add(name);
                    return null;
                });
                awaitTrue(() -> memory.waiting() == before + 1, name + " waits");
            }
            memory.release(10);
            for (int i = 0; i < names.size(); i++) {
                int count = i + 1;
                awaitTrue(() -> letIn.size() == count, "one more let in");
                assertEquals(names.subList(0, count), letIn, "one at a time (6 + 6 > 10), first come first served");
                memory.release(6);
            }
            assertEquals(0, memory.reserved());
        } finally {
            threads.shutdownNow();
        }
    }

    @Test
    void aWaiterThatGivesUpLeavesNothingBehindAndLetsTheNextIn() throws Exception {
        TextMemory memory = new TextMemory(10);
        assertTrue(memory.acquire(6, FOREVER));
        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            assertFalse(threads.submit(() -> memory.acquire(6, TimeUnit.MILLISECONDS.toNanos(1))).get(60, TimeUnit.SECONDS),
                    "6 more never fit while the 6 are held: it gives up after its wait");
            assertEquals(6, memory.reserved(), "nothing reserved by the one that gave up");
            assertEquals(0, memory.waiting());

            Future<Boolean> first = threads.submit(() -> memory.acquire(6, FOREVER));
            awaitTrue(() -> memory.waiting() == 1, "the first waits");
            Future<Boolean> second = threads.submit(() -> memory.acquire(3, FOREVER));
            awaitTrue(() -> memory.waiting() == 2, "the second waits behind it");

            first.cancel(true); // interrupted: it gives up
            assertTrue(second.get(60, TimeUnit.SECONDS), "the next in line goes once the first gave up");
            assertEquals(9, memory.reserved());
            assertEquals(0, memory.waiting());
        } finally {
            threads.shutdownNow();
        }
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
        long max = 8L << 20;
        StoreCodec codec = StoreCodec.builder(new QueuingStore())
                .limits(CodecLimits.builder().maxRequestBytes(max).build()).build();
        long inline = CodecLimits.DEFAULT_SPOOL_MEMORY_BYTES * 4L / 3;
        byte[] large = new byte[(int) inline + 1];
        long heap = TextMemory.HEAP_PER_BODY_BYTE * large.length;
        assertEquals(heap, codec.textHeap(Fixture.post(Fixture.PATH, large).bodyLength(large.length).build()),
                "a large SOAP body without an action");
        assertEquals(heap, codec.textHeap(Fixture.soap11Post("WriteString", "x").bodyLength(large.length).build()));
        assertEquals(TextMemory.HEAP_PER_BODY_BYTE * max,
                codec.textHeap(Fixture.post(Fixture.PATH + "/WriteString", "x").build()),
                "no length known: the largest body the codec accepts");
        assertEquals(heap, codec.textHeap(
                Fixture.post(Fixture.PATH, "x").header("Content-Length", Integer.toString(large.length)).build()),
                "the declared Content-Length when the adapter gives none");
        assertEquals(heap, codec.textHeap(Fixture.post(Fixture.PATH, "x").bodyLength(large.length)
                .header("Content-Type", "text/xml; action=\"" + Fixture.NS + "WriteBytes\"")
                .header("SOAPAction", Fixture.NS + "WriteString").build()),
                "SOAP 1.1 is routed by its SOAPAction alone");
        assertEquals(heap, codec.textHeap(Fixture.soap12Post("x").bodyLength(large.length)
                .header("SOAPAction", Fixture.NS + "WriteBytes").build()),
                "SOAP 1.2 is routed by its action parameter alone");
        assertEquals(heap, codec.textHeap(Fixture.post(Fixture.PATH, "x").bodyLength(large.length)
                .header("Content-Type", "application/soap+xml; action=\"urn:other:WriteBytes\"").build()),
                "an action of another namespace: the envelope decides");
        assertEquals(heap, codec.textHeap(Fixture.post(Fixture.PATH + "/writebytes", "x").bodyLength(large.length)
                .build()), "HTTP POST names an operation case-sensitively");

        assertEquals(0, codec.textHeap(Fixture.post(Fixture.PATH, "x").bodyLength(inline).build()),
                "a body answered inline");
        assertEquals(0, codec.textHeap(Fixture.soap11Post("WriteBytes", "x").bodyLength(large.length).build()),
                "SOAP 1.1 WriteBytes");
        assertEquals(0, codec.textHeap(Fixture.post(Fixture.PATH, "x").bodyLength(large.length)
                .header("Content-Type", "text/xml").header("SOAPAction", "http%3A%2F%2Ftempuri.org%2FWriteBytes").build()),
                "SOAP 1.1 WriteBytes, its action URL-encoded as routing decodes it");
        assertEquals(0, codec.textHeap(Fixture.post(Fixture.PATH, "x").bodyLength(large.length)
                .header("Content-Type", "application/soap+xml; charset=utf-8; action=\"http://tempuri.org/WriteBytes\"")
                .build()), "SOAP 1.2 WriteBytes");
        assertEquals(heap, codec.textHeap(Fixture.post(Fixture.PATH + "/WriteBytes", "x").bodyLength(large.length)
                .build()), "HTTP POST WriteBytes: its form is text until answered, its content too");
        assertEquals(0, codec.textHeap(Fixture.get(Fixture.PATH + "/WriteString", "key=k&value=v").build()),
                "HTTP GET has no body");
    }

    private static CodecRequest.Builder soap12(String key, String contentType) {
        byte[] body = Fixture.soap12(Fixture.writeString(key, VALUE)).getBytes(StandardCharsets.UTF_8);
        return Fixture.post(Fixture.PATH, body).bodyLength(body.length).header("Content-Type", contentType);
    }

    private static CodecRequest largeWriteString(String key) {
        byte[] body = Fixture.soap11(Fixture.writeString(key, VALUE)).getBytes(StandardCharsets.UTF_8);
        return Fixture.post(Fixture.PATH, body).bodyLength(body.length)
                .header("Content-Type", "text/xml; charset=utf-8")
                .header("SOAPAction", "\"" + Fixture.NS + "WriteString\"").build();
    }

    /** Polls {@code condition} every 10 ms, for at most 10 s (a bound, not a timing assertion). */
    private static void awaitTrue(BooleanSupplier condition, String what) throws InterruptedException {
        for (int i = 0; i < 1_000 && !condition.getAsBoolean(); i++) {
            Thread.sleep(10);
        }
        assertTrue(condition.getAsBoolean(), what);
    }
}
