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

/** Stopping while a write is in flight: the write completes and is acknowledged, and nothing new gets in. */
@Timeout(60)
class GracefulStopTest {
    private static final String SUCCESS = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n"
            + "<Status xmlns=\"http://tempuri.org/\">Success</Status>";

    private final GatedStorage storage = new GatedStorage(false);
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private StoreServer server;

    @AfterEach
    void release() {
        storage.open.countDown();
        server.stop();
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
}
