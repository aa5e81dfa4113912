package org.storeservice.examples.embed;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.storeservice.api.storage.MemoryStorage;

@Timeout(60)
class EmbedInJettyExampleTest {
    private final MemoryStorage storage = new MemoryStorage();
    private final HttpClient http = HttpClient.newHttpClient();
    private Server server;
    private URI base;

    @BeforeEach
    void start() throws Exception {
        server = EmbedInJettyExample.createServer(0, storage);
        server.start();
        base = URI.create("http://127.0.0.1:" + ((ServerConnector) server.getConnectors()[0]).getLocalPort());
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
        storage.close();
    }

    @Test
    void theHostsOwnHandlerStillAnswers() throws Exception {
        HttpResponse<String> response = get("/health");

        assertEquals(200, response.statusCode());
        assertEquals("OK", response.body());
    }

    @Test
    void theStoreEndpointAnswersBesideIt() throws Exception {
        HttpResponse<String> response = get("/API/Store.asmx/WriteString?key=k&value=v");

        assertEquals(200, response.statusCode(), response.body());
        assertEquals("<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<Status xmlns=\"http://tempuri.org/\">Success</Status>",
                response.body());
        assertEquals("v", storage.get("k").orElseThrow().text());
    }

    @Test
    void pathsNeitherHandlerTakesGet404() throws Exception {
        assertEquals(404, get("/elsewhere").statusCode());
    }

    private HttpResponse<String> get(String path) throws Exception {
        return http.send(HttpRequest.newBuilder(base.resolve(path)).build(), HttpResponse.BodyHandlers.ofString());
    }
}
