package org.storeservice.shadow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.StoreLimits;
import org.storeservice.shadow.Wire.Binding;

/**
 * The proxy's stop in stages, as the server's: readiness 503 first while the listener is kept and requests are served
 * (on new connections too), each answer closing its connection; then the stop. Real servers, a real client.
 */
@Timeout(120)
class ShadowProxyDrainTest {
    /** Long enough that the requests below are sent inside it on any machine; the test waits for it once. */
    private static final Duration DRAIN = Duration.ofSeconds(10);

    @TempDir
    Path directory;

    @Test
    void aStoppingProxyAnswersReadiness503AndServesOnThroughTheDrain() throws Exception {
        try (Services services = new Services(directory, StoreLimits.defaults(),
                proxy -> proxy.managementPort(0).drainTime(DRAIN))) {
            URI endpoint = services.endpoint();
            URI ready = URI.create("http://127.0.0.1:" + services.proxy.managementPort() + "/health/ready");
            assertEquals(200, status(ready));
            assertTrue(Wire.send(Wire.writeString(endpoint, Binding.GET, "before", "1")).success());

            CompletableFuture<Boolean> stopped = CompletableFuture.supplyAsync(services.proxy::stop);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (status(ready) != 503) {
                assertTrue(System.nanoTime() < deadline, "readiness never turned 503");
                Thread.sleep(20);
            }
            // Draining: the listener is kept; a new connection is served, and its answer closes it.
            Wire.Seen during = Wire.send(Wire.writeString(endpoint, Binding.SOAP11, "during", "2"));
            assertTrue(during.success(), during.text());
            assertEquals(List.of("close"), during.headers().get("connection"));
            assertTrue(!stopped.isDone(), "the write above was served during the drain, before the stop");

            assertTrue(stopped.get(60, TimeUnit.SECONDS), "a clean stop");
            assertEquals("text:2", services.primaryStorage.contents().get("during"));
            assertEquals("text:2", services.shadowStorage.contents().get("during"), "its copy reached the shadow before the stop");
        }
    }

    private static int status(URI uri) throws IOException, InterruptedException {
        return Wire.CLIENT.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
