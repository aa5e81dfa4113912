package org.storeservice.jetty;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.storeservice.api.storage.StoredEntry;

/** The management port: health checks as a load balancer calls them, and the host's own handler beside them. */
@Timeout(60)
class ManagementPortTest {
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private HttpResponse<String> get(StoreServer server, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.managementPort() + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void liveAndReadyAnswerJsonAndTheHostsHandlerIsServedBesideThem() throws Exception {
        Handler hello = new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                if (!"/hello".equals(request.getHttpURI().getPath())) {
                    return false;
                }
                response.write(true, ByteBuffer.wrap("hi".getBytes(UTF_8)), callback);
                return true;
            }
        };
        try (StoreServer server = StoreServer.builder().port(0).storageUri("memory:").managementPort(0)
                .managementHandler(hello).build().start()) {
            HttpResponse<String> live = get(server, "/health/live");
            assertEquals(200, live.statusCode());
            assertEquals("{\"status\":\"UP\"}", live.body());
            assertEquals("application/json", live.headers().firstValue("Content-Type").orElseThrow());
            HttpResponse<String> ready = get(server, "/health/ready");
            assertEquals(200, ready.statusCode());
            assertEquals("{\"status\":\"UP\"}", ready.body());
            assertEquals("hi", get(server, "/hello").body());
            assertEquals(404, get(server, "/other").statusCode());
            assertTrue(server.managementPort() != server.port());
            // The endpoint is not served on the management port, nor health on the endpoint's.
            assertEquals(404, get(server, "/API/Store.asmx").statusCode());
            assertEquals(404, http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port()
                    + "/health/live")).build(), HttpResponse.BodyHandlers.ofString()).statusCode());
        }
    }

    @Test
    void notReadyWhileTheStorageDoesNotAnswer() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        ForwardingStorage hanging = new ForwardingStorage() {
            @Override
            public Optional<StoredEntry> get(String key) throws IOException {
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted", e);
                }
                return delegate.get(key);
            }
        };
        try (StoreServer server = StoreServer.builder().port(0).storage(hanging).managementPort(0)
                .readinessTimeout(Duration.ofMillis(200)).build().start()) {
            HttpResponse<String> ready = get(server, "/health/ready");
            assertEquals(503, ready.statusCode());
            assertEquals("{\"status\":\"DOWN\",\"reason\":\"storage did not answer within 200 ms\"}", ready.body());
            assertEquals(200, get(server, "/health/live").statusCode(), "alive all the same");
            release.countDown();
            // Ready again once the released question has returned: on a slow machine that may take more than one
            // check's 200 ms, so ask until it is; the class's time-out fails the test if it never is.
            while (get(server, "/health/ready").statusCode() != 200) {
                Thread.sleep(10);
            }
        } finally {
            release.countDown();
        }
    }

    @Test
    void notReadyWhileStopping() throws Exception {
        GatedStorage gated = new GatedStorage(false);
        StoreServer server = StoreServer.builder().port(0).storage(gated).managementPort(0)
                .stopTimeout(Duration.ofSeconds(30)).build().start();
        int managementPort = server.managementPort();
        URI ready = URI.create("http://127.0.0.1:" + managementPort + "/health/ready");
        try {
            CompletableFuture<HttpResponse<String>> inFlight = http.sendAsync(
                    OpsRequests.soapWrite(server.endpointUri(), "held", "v").build(), HttpResponse.BodyHandlers.ofString());
            gated.entered.await();
            CompletableFuture<Void> stopping = CompletableFuture.runAsync(server::stop);
            HttpResponse<String> answer;
            do { // the stop begins on another thread; poll until it has
                answer = http.send(HttpRequest.newBuilder(ready).build(), HttpResponse.BodyHandlers.ofString());
            } while (answer.statusCode() == 200);
            assertEquals(503, answer.statusCode());
            assertEquals("{\"status\":\"DOWN\",\"reason\":\"stopping\"}", answer.body());
            gated.open.countDown();
            assertEquals(200, inFlight.get().statusCode(), "the request in flight still completes");
            stopping.get();
            assertThrows(IOException.class, () -> http.send(HttpRequest.newBuilder(ready).build(),
                    HttpResponse.BodyHandlers.ofString()), "the management port closes after the endpoint");
        } finally {
            gated.open.countDown();
            server.stop();
        }
    }

    @Test
    void offByDefault() throws Exception {
        try (StoreServer server = StoreServer.builder().port(0).storageUri("memory:").build().start()) {
            assertThrows(IllegalStateException.class, server::managementPort);
            assertFalse(server.toString().isEmpty());
        }
    }

    @Test
    void eachBusyPortIsNamedAsTheOneThatFailed() throws Exception {
        int managementPort;
        try (java.net.ServerSocket free = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            managementPort = free.getLocalPort();
        }
        try (java.net.ServerSocket taken = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
            int busy = taken.getLocalPort();
            ListenException management = assertThrows(ListenException.class,
                    () -> StoreServer.builder().port(0).storageUri("memory:").managementPort(busy).build().start());
            assertEquals(ListenException.Listener.MANAGEMENT, management.listener());
            assertEquals(busy, management.port());
            ListenException endpoint = assertThrows(ListenException.class, () -> StoreServer.builder().port(busy)
                    .storageUri("memory:").managementPort(managementPort).build().start());
            assertEquals(ListenException.Listener.ENDPOINT, endpoint.listener());
            assertEquals("cannot listen on 127.0.0.1:" + busy + " (endpoint port): Address already in use",
                    endpoint.getMessage());
        }
        // The failed start gave back the management port it had bound before the endpoint's failed.
        try (StoreServer server = StoreServer.builder().port(0).storageUri("memory:").managementPort(managementPort)
                .build().start()) {
            assertEquals(200, get(server, "/health/ready").statusCode());
        }
    }
}
