package org.storeservice.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.MeterRegistry;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;

/** With Actuator present: the storage's health in /actuator/health, the request timer in the registry. */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"store.storage=memory:", "management.endpoint.health.show-details=always"})
class ActuatorTest {
    private final HttpClient http = HttpClient.newHttpClient();
    @LocalServerPort
    private int port;
    @Autowired
    private MeterRegistry registry;

    @Test
    void theHealthEndpointReportsTheStorage() throws Exception {
        HttpResponse<String> response = get("/actuator/health");

        assertEquals(200, response.statusCode(), response.body());
        String body = response.body().replace(" ", "");
        int start = body.indexOf("\"store\":{");
        assertTrue(start >= 0, body);
        String store = body.substring(start, body.indexOf("}}", start) + 2); // {details:{...},status} in either order
        assertTrue(store.contains("\"status\":\"UP\""), store);
        assertTrue(store.contains("\"storage\":\"org.storeservice.api.storage.MemoryStorage"), store);
    }

    @Test
    @Timeout(60)
    void requestsAreTimedByOutcome() throws Exception {
        double before = count("SUCCESS") + count("SERVER_ERROR");

        assertEquals(200, get("/API/Store.asmx/WriteString?key=timed&value=v").statusCode());
        assertEquals(500, get("/API/Store.asmx/WriteString?value=v").statusCode());

        // Recorded when each async exchange completes, which may be just after its client has the answer.
        while (count("SUCCESS") + count("SERVER_ERROR") < before + 2) {
            Thread.sleep(10);
        }
        assertEquals(before + 2, count("SUCCESS") + count("SERVER_ERROR"));
        assertTrue(count("SUCCESS") >= 1 && count("SERVER_ERROR") >= 1);
    }

    private double count(String outcome) {
        var timer = registry.find(StoreRequestTimer.METRIC).tag("outcome", outcome).timer();
        return timer == null ? 0 : timer.count();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
