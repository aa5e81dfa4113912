package org.storeservice.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * {@code store.drain-time}: as the application closes, readiness refuses traffic at once while the endpoint still
 * answers writes, for the drain time, before the web server's graceful shutdown.
 */
@Timeout(120)
class DrainTest {
    private final HttpClient http = HttpClient.newHttpClient();

    @Test
    void whileDrainingReadinessRefusesTrafficAndTheEndpointStillWrites() throws Exception {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(TestApplication.class).run(
                "--server.port=0", "--store.storage=memory:", "--store.drain-time=8s",
                "--management.endpoint.health.probes.enabled=true");
        int port = ((WebServerApplicationContext) context).getWebServer().getPort();
        URI readiness = URI.create("http://127.0.0.1:" + port + "/actuator/health/readiness");
        assertEquals(200, status(readiness));

        CompletableFuture<Void> closing = CompletableFuture.runAsync(context::close);
        for (int i = 0; i < 1000 && status(readiness) != 503; i++) {
            Thread.sleep(10); // bounded: readiness turns as the close begins
        }
        assertEquals(503, status(readiness), "readiness refuses traffic while draining");
        HttpResponse<String> write = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                + "/API/Store.asmx/WriteString?key=k&value=v")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, write.statusCode());
        assertTrue(write.body().contains(">Success<"), write.body());
        assertFalse(closing.isDone(), "the drain lasts its time");
        closing.get(60, TimeUnit.SECONDS);
    }

    private int status(URI uri) throws Exception {
        return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    }
}
