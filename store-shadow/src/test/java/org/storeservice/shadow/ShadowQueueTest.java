package org.storeservice.shadow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.storeservice.codec.Binding;

class ShadowQueueTest {
    private final List<Mirror> sending = new ArrayList<>();
    private final List<String> sent = new ArrayList<>();
    private final List<String> dropped = new ArrayList<>();

    private ShadowQueue queue(long maxBytes, int concurrency) {
        return new ShadowQueue(maxBytes, concurrency, mirror -> {
            sending.add(mirror);
            sent.add(mirror.request().key() + "=" + mirror.method());
        }, (mirror, why) -> dropped.add(mirror.request().key() + ": " + why));
    }

    /** A copy of a write of {@code key}, told apart by {@code tag} (carried as its method), holding {@code bytes}. */
    private static Mirror copy(String key, String tag, int bytes) {
        Answer primary = new Answer(200, List.of(Map.entry("Content-Type", "text/xml")), new byte[bytes], bytes,
                AnswerCopy.sha256Of(new byte[bytes]), null);
        return new Mirror(Instant.now(), new Classification(Binding.SOAP11, "WriteString", key), tag, "/API/Store.asmx", "",
                null, List.of(), null, primary, null);
    }

    @Test
    void copiesOfOneKeyGoOneAfterAnotherInTheirOrderAndOtherKeysDoNotWait() {
        ShadowQueue queue = queue(1_000_000, 8);
        queue.offer(copy("a", "1", 10));
        queue.offer(copy("a", "2", 10));
        queue.offer(copy("b", "1", 10));
        queue.offer(copy("a", "3", 10));
        assertEquals(List.of("a=1", "b=1"), sent, "a's second copy waits for its first; b does not");
        queue.sent(sending.get(0)); // the shadow answered a=1
        assertEquals(List.of("a=1", "b=1", "a=2"), sent);
        queue.sent(sending.get(1));
        queue.sent(sending.get(2));
        assertEquals(List.of("a=1", "b=1", "a=2", "a=3"), sent);
        queue.sent(sending.get(3));
        assertEquals(0, queue.copies());
        assertEquals(0, queue.bytes());
    }

    @Test
    void aCopyThatDoesNotFitIsDroppedAtOnceAndTheBoundHolds() {
        long each = copy("x", "1", 10).bytes();
        ShadowQueue queue = queue(2 * each + each / 2, 1);
        queue.offer(copy("a", "1", 10));
        queue.offer(copy("b", "1", 10));
        queue.offer(copy("c", "1", 10));
        assertEquals(List.of("c: the shadow queue was full"), dropped);
        assertEquals(2 * each, queue.bytes());
        assertEquals(List.of("a=1"), sent, "one at a time");
        queue.sent(sending.get(0));
        queue.offer(copy("d", "1", 10));
        assertEquals(List.of("a=1", "b=1"), sent);
        assertEquals(2 * each, queue.bytes());
    }

    @Test
    void aCopyCountsEverythingItHoldsNotOnlyItsBodyAndAnswer() {
        Answer answer = new Answer(200, List.of(Map.entry("Content-Type", "text/xml"), Map.entry("X-Answer", "a".repeat(300))),
                new byte[100], 100, AnswerCopy.sha256Of(new byte[100]), null);
        String query = "key=k&value=" + "v".repeat(48_000); // an HTTP GET write carries its value in the query
        Mirror get = new Mirror(Instant.now(), new Classification(Binding.HTTP_GET, "WriteString", "k"), "GET",
                "/API/Store.asmx/WriteString", "/WriteString", query,
                List.of(new org.eclipse.jetty.http.HttpField("X-Client", "c".repeat(5_000))), null, answer, null);
        long atLeast = query.length() + 5_000 + 300 + 100 + "/API/Store.asmx/WriteString".length();
        assertTrue(get.bytes() >= atLeast, get.bytes() + " < " + atLeast);
        ShadowQueue queue = queue(atLeast - 1, 1);
        queue.offer(get);
        assertEquals(List.of("k: the shadow queue was full"), dropped, "the query and headers count against the bound");
    }

    @Test
    void aStopDropsWhatWasNotSentInTime() throws InterruptedException {
        ShadowQueue queue = queue(1_000_000, 1);
        queue.offer(copy("a", "1", 1));
        queue.offer(copy("b", "1", 1));
        queue.offer(copy("a", "2", 1));
        assertEquals(3, queue.stop(Duration.ofMillis(1)), "two dropped, one still waiting for the shadow");
        assertEquals(List.of("b: the proxy stopped before the shadow was sent it",
                "a: the proxy stopped before the shadow was sent it"), dropped);
        queue.offer(copy("c", "1", 1));
        assertEquals("c: the proxy was stopping", dropped.get(2));
        queue.sent(sending.get(0)); // the one being sent ends by its own answer
        assertEquals(0, queue.copies());
    }
}
