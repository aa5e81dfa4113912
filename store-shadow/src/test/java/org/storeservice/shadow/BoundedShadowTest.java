package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.StoreLimits;
import org.storeservice.shadow.Wire.Binding;

/**
 * The proxy's memory bounded in fact, with real Store servers: the queue's bound counts all a copy holds, a client that
 * never reads its answer does not hold its key's turn, and a key's waiting writes are bounded.
 */
class BoundedShadowTest {
    @TempDir
    Path directory;

    /**
     * HTTP GET writes carry their value in the query, which the bound once left out: 300 of them, with a shadow that
     * holds every copy, must not hold more than the bound. The values are 12 KiB (the reproduction used 48 KiB
     * against Mono; Store refuses a request head over 16 KiB, and the primary and shadow here are Store servers).
     */
    @Test
    void httpGetWritesOfLargeValuesHoldNoMoreThanTheBound() throws Exception {
        long bound = 1024 * 1024;
        int valueBytes = 12 * 1024;
        try (Services services = new Services(directory, StoreLimits.defaults(),
                proxy -> proxy.queueBytes(bound).shadowConcurrency(2))) {
            services.shadowStorage.shut(); // the shadow takes each copy and never answers, until opened
            int writes = 300;
            String value = "v".repeat(valueBytes);
            long mostBytes = 0;
            int mostCopies = 0;
            for (int i = 0; i < writes; i++) {
                Wire.Seen seen = Wire.send(Wire.writeString(services.endpoint(), Binding.GET, "get-" + i, value));
                assertTrue(seen.success(), seen.status() + " " + seen.text());
                mostBytes = Math.max(mostBytes, services.proxy.queuedBytes());
                mostCopies = Math.max(mostCopies, services.proxy.queuedCopies());
            }
            services.await(() -> services.count(ShadowResult.DROPPED) + services.proxy.queuedCopies() == writes,
                    "every copy queued or dropped");
            mostCopies = Math.max(mostCopies, services.proxy.queuedCopies());
            assertTrue(mostBytes <= bound, "counted " + mostBytes + " bytes, bound " + bound);
            // Each copy holds its query, more than valueBytes: what the copies held in fact stays within the bound.
            assertTrue((long) mostCopies * valueBytes <= bound, mostCopies + " copies of " + valueBytes + " bytes held");
            assertTrue(mostCopies > bound / valueBytes / 2, "the queue filled up: " + mostCopies);
            long dropped = services.count(ShadowResult.DROPPED);
            assertTrue(dropped > writes / 2, "most copies dropped: " + dropped);
            services.shadowStorage.open();
            services.awaitOutcomes(writes);
        }
    }

    /**
     * A client that never reads its answer (a small receive buffer, an answer of 600 KB: Store names its namespace in
     * the answer) once held its key's turn until the idle time-out, while the other writes of that key waited. The turn
     * is given back once the primary has answered: a second client's write of the key is answered.
     */
    @Test
    void aClientThatNeverReadsItsAnswerDoesNotHoldItsKeysTurn() throws Exception {
        String namespace = "http://tempuri.org/" + "n".repeat(600_000);
        try (Services services = new Services(directory, StoreLimits.defaults(), server -> server.namespace(namespace),
                proxy -> proxy.namespace(namespace).idleTimeout(java.time.Duration.ofMinutes(30)));
                Socket stuck = new Socket()) {
            URI endpoint = services.endpoint();
            stuck.setReceiveBufferSize(2048);
            stuck.connect(new InetSocketAddress(endpoint.getHost(), endpoint.getPort()), 10_000);
            OutputStream out = stuck.getOutputStream();
            out.write(("GET " + endpoint.getPath() + "/WriteString?key=held&value=first HTTP/1.1\r\nHost: "
                    + endpoint.getHost() + ":" + endpoint.getPort() + "\r\n\r\n").getBytes(ISO_8859_1));
            out.flush(); // and never read: the answer does not fit in the socket buffers
            services.await(() -> services.primaryStorage.writes("held") == 1, "the first write at the primary");
            // Answered within Wire's 60 s time-out, far below the proxy's 30 min idle time-out that once ended the wait.
            Wire.Seen second = Wire.send(Wire.writeString(endpoint, Binding.GET, "held", "second"));
            assertTrue(second.success(), second.text().length() > 200 ? second.text().substring(0, 200) : second.text());
            services.awaitOutcomes(2);
            assertEquals(2, services.count(ShadowResult.MATCHED));
            assertEquals("text:second", services.shadowStorage.contents().get("held"));
            assertEquals("text:second", services.primaryStorage.contents().get("held"));
        }
    }

    /** A key's writes waiting for its turn are bounded: one beyond goes to the primary at once, unmirrored and listed. */
    @Test
    void aKeysWaitingWritesAreBoundedAndOneBeyondIsListed() throws Exception {
        try (Services services = new Services(directory, StoreLimits.defaults(), proxy -> { })) {
            services.primaryStorage.shut(); // the first write holds the key's turn while the primary holds it
            int beyond = 2;
            int writes = 1 + KeyTurns.MAX_WAITING + beyond;
            List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
            answers.add(Wire.CLIENT.sendAsync(Wire.writeString(services.endpoint(), Binding.SOAP11, "hot", "v0"),
                    HttpResponse.BodyHandlers.ofString()));
            services.await(() -> services.primaryStorage.writes("hot") == 1, "the first write at the primary");
            for (int i = 1; i < writes; i++) {
                answers.add(Wire.CLIENT.sendAsync(Wire.writeString(services.endpoint(), Binding.SOAP11, "hot", "v" + i),
                        HttpResponse.BodyHandlers.ofString()));
            }
            services.await(() -> services.count(ShadowResult.DROPPED) == beyond, "the writes beyond the bound listed");
            services.primaryStorage.open();
            for (CompletableFuture<HttpResponse<String>> answer : answers) {
                assertTrue(answer.get().body().contains(">Success<"), answer.get().body());
            }
            services.awaitOutcomes(writes);
            assertEquals(beyond, services.count(ShadowResult.DROPPED));
            assertEquals(writes - beyond, services.count(ShadowResult.MATCHED));
            List<String> listed = Files.readAllLines(services.droppedKeys);
            assertEquals(beyond, listed.size());
            for (String line : listed) {
                assertTrue(line.contains("\"key\":\"hot\"") && line.contains("waiting for their turn"), line);
            }
        }
    }
}
