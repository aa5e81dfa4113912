package org.storeservice.spring.boot;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.Storage;

/**
 * The application's own Storage bean replaces the one from {@code store.storage}, and the endpoint answers
 * where {@code store.path} and the context path put it, under the configured namespace.
 */
@SpringBootTest(classes = {TestApplication.class, CustomPathAndStorageTest.OwnStorage.class},
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"server.servlet.context-path=/app", "store.path=/legacy/Service.asmx",
                "store.namespace=urn:example:store", "store.storage=sqlite:target/must-not-be-opened.db"})
class CustomPathAndStorageTest {
    private final HttpClient http = HttpClient.newHttpClient();
    @LocalServerPort
    private int port;
    @Autowired
    private ApplicationContext context;

    @TestConfiguration
    static class OwnStorage {
        @Bean
        MemoryStorage ownStorage() {
            return new MemoryStorage();
        }
    }

    @Test
    void theApplicationsStorageIsTheOneWrittenTo() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(endpoint("/WriteString"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString("key=k&value=v")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.body().contains("<Status xmlns=\"urn:example:store\">Success</Status>"), response.body());
        MemoryStorage own = context.getBean("ownStorage", MemoryStorage.class);
        assertSame(own, context.getBean(Storage.class)); // the only one: none was opened from store.storage
        assertEquals("v", own.get("k").orElseThrow().text());
        assertFalse(new java.io.File("target/must-not-be-opened.db").exists());
    }

    @Test
    void theWsdlNamesTheConfiguredPathInsideTheContextPath() throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(endpoint("?wsdl")).build(),
                HttpResponse.BodyHandlers.ofString(UTF_8));

        assertEquals(200, response.statusCode());
        assertTrue(response.body().contains("targetNamespace=\"urn:example:store\""), response.body());
        assertTrue(response.body().contains("<soap:address location=\"" + endpoint("") + "\" />"), response.body());
    }

    @Test
    void theDefaultPathIsNotServed() throws Exception {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/app/API/Store.asmx?wsdl")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertEquals(404, response.statusCode());
    }

    private URI endpoint(String suffix) {
        return URI.create("http://localhost:" + port + "/app/legacy/Service.asmx" + suffix);
    }
}
