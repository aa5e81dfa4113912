package org.storeservice.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A stop in stages, each against a real server: the drain (readiness 503, every request still served, each answer
 * closing its connection), then the stop (no new connections; a write in flight completes and is acknowledged, and a
 * request still arriving is answered, never 503; every connection closed after an answer).
 */
@Timeout(60)
class GracefulStopTest {
    private static final String SUCCESS = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n"
            + "<Status xmlns=\"http://tempuri.org/\">Success</Status>";
    private static final String SUCCESS_STATUS = "<Status xmlns=\"http://tempuri.org/\">Success</Status>";

    private final GatedStorage storage = new GatedStorage(false);
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private StoreServer server;

    @AfterEach
    void release() {
        storage.open.countDown();
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void aWriteInFlightCompletesWithSuccessWhileStopWaitsAndNewConnectionsAreRefused() throws Exception {
        server = StoreServer.builder().port(0).storage(storage).stopTimeout(Duration.ofSeconds(30)).build().start();
        URI endpoint = server.endpointUri();
        CompletableFuture<HttpResponse<String>> inFlight = http.sendAsync(
                HttpRequest.newBuilder(URI.create(endpoint + "/WriteString?key=k&value=v")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(storage.entered.await(30, TimeUnit.SECONDS), "the write never reached the storage");

        CompletableFuture<Boolean> stopping = CompletableFuture.supplyAsync(server::stop);
        while (!RawHttp.refusesConnections(endpoint)) {
            Thread.sleep(10); // until stop has closed the listening socket
        }
        assertFalse(stopping.isDone(), "stop returned while a write was in flight");
        assertFalse(inFlight.isDone(), "the write was answered before it was stored");

        storage.open.countDown();

        HttpResponse<String> response = inFlight.get(30, TimeUnit.SECONDS);
        assertEquals(200, response.statusCode());
        assertEquals(SUCCESS, response.body());
        assertTrue(stopping.get(30, TimeUnit.SECONDS), "stop says every request finished");
        assertEquals("v", storage.delegate.get("k").orElseThrow().text());
        assertTrue(RawHttp.refusesConnections(endpoint));
    }

    @Test
    void stopGivesUpAfterTheStopTimeoutWhenAWriteNeverFinishes() throws Exception {
        server = StoreServer.builder().port(0).storage(storage).stopTimeout(Duration.ofMillis(200)).build().start();
        URI endpoint = server.endpointUri();
        CompletableFuture<HttpResponse<String>> inFlight = http.sendAsync(
                HttpRequest.newBuilder(URI.create(endpoint + "/WriteString?key=k&value=v")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertTrue(storage.entered.await(30, TimeUnit.SECONDS), "the write never reached the storage");

        // The storage stays shut: stop must still return, bounded by its timeout, not by the write.
        assertFalse(CompletableFuture.supplyAsync(server::stop).get(30, TimeUnit.SECONDS),
                "stop says a request was cut off"); // the ready server then exits 1 instead of 0

        assertTrue(RawHttp.refusesConnections(endpoint));
        HttpResponse<String> outcome = inFlight.handle((response, failure) -> response).get(30, TimeUnit.SECONDS);
        assertTrue(outcome == null || !outcome.body().equals(SUCCESS),
                "a write still held in the storage when stop gave up was acknowledged");
    }

    @Test
    void whileDrainingReadinessIsNotReadyAndTheEndpointServesClosingEachConnection() throws Exception {
        storage.open.countDown(); // writes go straight through
        server = StoreServer.builder().port(0).storage(storage).managementPort(0).drainTime(Duration.ofSeconds(20))
                .build().start();
        URI endpoint = server.endpointUri();
        URI ready = URI.create("http://127.0.0.1:" + server.managementPort() + "/health/ready");
        assertEquals(200, status(ready));
        assertFalse(closes(write(endpoint, "before")), "a server that is not stopping keeps connections open");

        CompletableFuture<Boolean> stopping = CompletableFuture.supplyAsync(server::stop);
        for (int i = 0; i < 1000 && status(ready) != 503; i++) {
            Thread.sleep(10); // bounded: the drain begins as stop() is called
        }
        assertEquals(503, status(ready), "readiness turns 503 as the drain begins");

        HttpResponse<String> during = write(endpoint, "during");
        assertEquals(200, during.statusCode());
        assertTrue(during.body().contains(SUCCESS_STATUS), during.body());
        assertTrue(closes(during), "each answer closes its connection, so clients reconnect elsewhere");
        assertEquals("during", storage.delegate.get("during").orElseThrow().text());
        assertFalse(stopping.isDone(), "the drain lasts its time");
        assertFalse(RawHttp.refusesConnections(endpoint), "the port stays open while draining");
    }

    /**
     * Once the stop has begun, Jetty's own GracefulHandler answers 503 to a request that arrives on a connection
     * already open: to a client that does not retry, a lost write. The draining handler serves it, and closes the
     * connection after the answer.
     */
    @Test
    void aRequestArrivingDuringTheStopIsAnsweredAndClosesItsConnectionNotRefused() throws Exception {
        org.eclipse.jetty.server.Server jetty = new org.eclipse.jetty.server.Server();
        org.eclipse.jetty.server.LocalConnector local = new org.eclipse.jetty.server.LocalConnector(jetty);
        jetty.addConnector(local);
        DrainingHandler draining = new DrainingHandler(new org.eclipse.jetty.server.Handler.Abstract() {
            @Override
            public boolean handle(org.eclipse.jetty.server.Request request, org.eclipse.jetty.server.Response response,
                    org.eclipse.jetty.util.Callback callback) {
                response.write(true, java.nio.ByteBuffer.wrap("served".getBytes(java.nio.charset.StandardCharsets.UTF_8)),
                        callback);
                return true;
            }
        });
        jetty.setHandler(draining);
        jetty.start();
        try {
            String before = local.getResponse("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            assertTrue(before.startsWith("HTTP/1.1 200"), before);
            assertFalse(before.contains("Connection: close"), before);

            draining.shutdown().get(10, java.util.concurrent.TimeUnit.SECONDS); // the stop has begun; nothing in flight
            String during = local.getResponse("GET / HTTP/1.1\r\nHost: x\r\n\r\n");
            assertTrue(during.startsWith("HTTP/1.1 200"), "served, not refused: " + during);
            assertTrue(during.endsWith("served"), during);
            assertTrue(during.contains("Connection: close"), during);
            for (int i = 0; i < 1000 && draining.inFlight() != 0; i++) {
                Thread.sleep(5); // the answer is sent before its callback ends the request: bounded wait for that
            }
            assertEquals(0, draining.inFlight(), "the request served during the stop is no longer counted");
        } finally {
            jetty.stop();
        }
    }

    private HttpResponse<String> write(URI endpoint, String key) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(endpoint + "/WriteString?key=" + key + "&value=" + key))
                .build(), HttpResponse.BodyHandlers.ofString());
    }

    private int status(URI uri) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static boolean closes(HttpResponse<?> response) {
        return response.headers().firstValue("Connection").map("close"::equalsIgnoreCase).orElse(false);
    }
}
