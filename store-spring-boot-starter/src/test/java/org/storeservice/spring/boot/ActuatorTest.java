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
import org.storeservice.micrometer.StoreMetrics;

/** With Actuator present: the storage's health in /actuator/health, the request metrics in the registry. */
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
    void requestsAreCountedByBindingOperationAndOutcome() throws Exception {
        double successes = count("Success");
        double errors = count("Error");

        assertEquals(200, get("/API/Store.asmx/WriteString?key=counted&value=v").statusCode());
        assertEquals(500, get("/API/Store.asmx/WriteString?value=v").statusCode()); // missing key: ASMX's 500

        assertEquals(successes + 1, count("Success"));
        assertEquals(errors, count("Error"));
        var fault = registry.find(StoreMetrics.REQUESTS).tag("binding", "httpget").tag("operation", "WriteString")
                .tag("outcome", "5xx").counter();
        assertTrue(fault != null && fault.count() >= 1, "the missing key's 500 is counted as 5xx");
    }

    private double count(String outcome) {
        var counter = registry.find(StoreMetrics.REQUESTS).tag("binding", "httpget").tag("operation", "WriteString")
                .tag("outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }
}
