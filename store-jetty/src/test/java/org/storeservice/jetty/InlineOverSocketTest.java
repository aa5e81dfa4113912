package org.storeservice.jetty;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.thread.Invocable.InvocationType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.codec.StoreCodec;

/**
 * The inline path over a real socket, as a client sees it: a memory store behind a non-blocking handler on a
 * {@link ServerConnector}, driven by the JDK's HTTP client.
 */
class InlineOverSocketTest {
    private static final String NS = "http://tempuri.org/";

    private final ThreadLocal<Boolean> insideHandler = ThreadLocal.withInitial(() -> false);
    private final SelectorWatchingStorage storage = new SelectorWatchingStorage();
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private Server server;
    private URI endpoint;

    @BeforeEach
    void start() throws Exception {
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        StoreCodec codec = StoreCodec.builder(DefaultStore.of(storage)).build();
        server.setHandler(new GracefulHandler(
                new ThreadMarkingHandler(new StoreHandler(codec), insideHandler, () -> { })));
        server.start();
        endpoint = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/API/Store.asmx");
    }

    @AfterEach
    void stop() throws Exception {
        server.stop();
    }

    @Test
    void aRequestWithoutBodyIsAnsweredOnTheSelectorThread() throws Exception {
        assertEquals(InvocationType.NON_BLOCKING, server.getInvocationType());

        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create(endpoint + "/WriteString?key=socket&value=inline")).GET().build(),
                HttpResponse.BodyHandlers.ofString());

        assertEquals(200, response.statusCode(), response.body());
        assertTrue(response.body().contains(">Success</Status>"), response.body());
        assertEquals("inline", storage.get("socket").orElseThrow().text());
        // Called inside Jetty's call of the handler, which the selector's thread ran itself: no hand-off.
        assertEquals(List.of(true), storage.calledInsideHandler);
        assertEquals(List.of(true), storage.calledFromSelector);
    }

    @Test
    void soapRequestsAreAnsweredWhicheverPathTheyTake() throws Exception {
        // Whether the client's body arrives with its headers is up to the client and the network: either
        // path must give the same answer.
        for (int i = 0; i < 20; i++) {
            String body = "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">"
                    + "<soap:Body><WriteString xmlns=\"" + NS + "\"><key>soap" + i + "</key><value>v" + i + "</value>"
                    + "</WriteString></soap:Body></soap:Envelope>";
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(endpoint)
                            .header("Content-Type", "text/xml; charset=utf-8")
                            .header("SOAPAction", "\"" + NS + "WriteString\"")
                            .POST(HttpRequest.BodyPublishers.ofString(body, UTF_8))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());

            assertEquals(200, response.statusCode(), response.body());
            assertTrue(response.body().contains("<WriteStringResult>Success</WriteStringResult>"), response.body());
            assertEquals("v" + i, storage.get("soap" + i).orElseThrow().text());
        }
    }

    /** A memory storage that notes where each write ran. */
    private final class SelectorWatchingStorage extends ForwardingStorage {
        final List<Boolean> calledInsideHandler = new CopyOnWriteArrayList<>();
        final List<Boolean> calledFromSelector = new CopyOnWriteArrayList<>();

        @Override
        public boolean writesNeverBlock() {
            return true;
        }

        @Override
        public boolean putText(String key, String value, OverwritePolicy policy) throws IOException {
            calledInsideHandler.add(insideHandler.get());
            // The selector's producing thread running the task itself ("produce-consume": pcRunTask, in Jetty
            // 12.1), rather than handing it or the production over to another thread.
            calledFromSelector.add(Arrays.stream(Thread.currentThread().getStackTrace())
                    .anyMatch(frame -> frame.getClassName().endsWith(".AdaptiveExecutionStrategy")
                            && frame.getMethodName().equals("pcRunTask")));
            return super.putText(key, value, policy);
        }
    }
}
