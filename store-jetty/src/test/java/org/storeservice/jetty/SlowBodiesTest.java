package org.storeservice.jetty;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.storeservice.api.DefaultStore;
import org.storeservice.codec.StoreCodec;

/**
 * Clients that send their headers and then trickle the body hold no thread: with more of them open than the
 * server has threads, another client's write is still answered. Were bodies read by blocking a thread, as
 * they once were, the handler could not even be called for all of them, nor the other client be answered.
 */
@Timeout(60)
class SlowBodiesTest {
    private static final int MAX_THREADS = 16;
    private static final int SLOW_CLIENTS = 40;

    private Server server;
    private final List<Socket> sockets = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (Socket socket : sockets) {
            socket.close();
        }
        server.stop();
    }

    @ParameterizedTest(name = "store never blocks: {0}")
    @ValueSource(booleans = {false, true})
    void moreSlowBodiesThanThreadsLeaveOtherClientsServed(boolean neverBlocks) throws Exception {
        ForwardingStorage storage = new ForwardingStorage() {
            @Override
            public boolean writesNeverBlock() {
                return neverBlocks;
            }
        };
        CountDownLatch handled = new CountDownLatch(SLOW_CLIENTS);
        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 4);
        server = new Server(threads);
        ServerConnector connector = new ServerConnector(server, 1, 1);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        StoreCodec codec = StoreCodec.builder(DefaultStore.of(storage)).build();
        server.setHandler(new ThreadMarkingHandler(new StoreHandler(codec), ThreadLocal.withInitial(() -> false),
                handled::countDown));
        server.start();
        URI endpoint = URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/API/Store.asmx");

        List<String> bodies = new ArrayList<>();
        for (int i = 0; i < SLOW_CLIENTS; i++) {
            String body = "key=slow" + i + "&value=" + "v".repeat(100) + i;
            Socket socket = RawHttp.connect(endpoint);
            sockets.add(socket);
            RawHttp.send(socket, "POST /API/Store.asmx/WriteString HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + body.length() + "\r\n\r\n"
                    + body.substring(0, 5));
            bodies.add(body);
        }
        assertTrue(handled.await(30, TimeUnit.SECONDS), "the handler was called for every slow client and returned");

        HttpResponse<String> other = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build().send(
                HttpRequest.newBuilder(URI.create(endpoint + "/WriteString?key=other&value=fast")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, other.statusCode(), other.body());
        assertEquals("fast", storage.get("other").orElseThrow().text());

        // The slow clients were real requests all along: once their bodies end, each is stored and answered.
        for (int i = 0; i < SLOW_CLIENTS; i++) {
            RawHttp.send(sockets.get(i), bodies.get(i).substring(5));
        }
        for (int i = 0; i < SLOW_CLIENTS; i++) {
            String answer = readResponse(sockets.get(i));
            assertTrue(answer.startsWith("HTTP/1.1 200 "), answer);
            assertEquals("v".repeat(100) + i, storage.get("slow" + i).orElseThrow().text());
        }
    }

    /** One response whose body ends with the HTTP binding's status element. */
    private static String readResponse(Socket socket) throws Exception {
        StringBuilder received = new StringBuilder();
        byte[] buffer = new byte[1024];
        while (!received.toString().endsWith("</Status>")) {
            int n = socket.getInputStream().read(buffer);
            if (n < 0) {
                break;
            }
            received.append(new String(buffer, 0, n, UTF_8));
        }
        return received.toString();
    }
}
