package org.storeservice.jetty;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.StoreCodec;

/**
 * Request bodies in flight hold no more heap than the codec's budget, however many arrive at once: the rest
 * goes to temporary files, which are gone once the requests are answered. And a body in a transfer coding
 * the server does not decode is refused, not stored as sent.
 */
@Timeout(120)
class BodyMemoryTest {
    private static final String NS = "http://tempuri.org/";
    private static final long BUDGET = 256 * 1024;
    private static final int UPLOADS = 16;
    private static final int VALUE_BYTES = 1024 * 1024;

    private final MemoryStorage storage = new MemoryStorage();
    private Server server;

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void manyConcurrentLargeBodiesStayWithinTheBudgetAndAreStoredExactly() throws Exception {
        StoreCodec codec = StoreCodec.builder(DefaultStore.of(storage))
                .limits(CodecLimits.builder().bodyMemoryBudgetBytes(BUDGET).bodyMemoryBytes(64 * 1024).build())
                .build();
        URI endpoint = start(codec);
        Set<Path> filesBefore = bodyFiles();
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

        List<byte[]> values = new ArrayList<>();
        List<CompletableFuture<HttpResponse<String>>> answers = new ArrayList<>();
        for (int i = 0; i < UPLOADS; i++) {
            byte[] value = new byte[VALUE_BYTES];
            new Random(i).nextBytes(value);
            values.add(value);
            String envelope = "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\""
                    + "http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body><WriteBytes xmlns=\"" + NS + "\"><key>k" + i
                    + "</key><content>" + Base64.getEncoder().encodeToString(value) + "</content></WriteBytes>"
                    + "</soap:Body></soap:Envelope>";
            answers.add(http.sendAsync(HttpRequest.newBuilder(endpoint)
                            .header("Content-Type", "text/xml; charset=utf-8")
                            .header("SOAPAction", "\"" + NS + "WriteBytes\"")
                            .POST(HttpRequest.BodyPublishers.ofString(envelope, UTF_8))
                            .build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
        for (int i = 0; i < UPLOADS; i++) {
            HttpResponse<String> answer = answers.get(i).get();
            assertEquals(200, answer.statusCode(), answer.body());
            assertTrue(answer.body().contains("<WriteBytesResult>Success</WriteBytesResult>"), answer.body());
            assertArrayEquals(values.get(i), storage.get("k" + i).orElseThrow().bytes(), "k" + i);
        }

        long highWaterMark = codec.bodyMemoryBudget().highWaterMark();
        assertTrue(highWaterMark > 0, "bodies were held in memory as far as the budget let them");
        assertTrue(highWaterMark <= BUDGET, "at most the budget in memory at once: " + highWaterMark);
        assertEquals(0, codec.bodyMemoryBudget().reserved(), "every buffer gave its memory back");
        Set<Path> left = bodyFiles();
        left.removeAll(filesBefore);
        assertEquals(Set.of(), left, "every temporary body file was deleted");
    }

    @Test
    void aTransferCodingOtherThanChunkedGets501AndStoresNothing() throws Exception {
        URI endpoint = start(StoreCodec.builder(DefaultStore.of(storage)).build());
        try (Socket socket = RawHttp.connect(endpoint)) {
            RawHttp.send(socket, "POST /API/Store.asmx/WriteString HTTP/1.1\r\nHost: localhost\r\n"
                    + "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
                    + "d\r\nkey=k&value=v\r\n0\r\n\r\n");

            String received = RawHttp.readUntilClosed(socket);

            assertTrue(received.startsWith("HTTP/1.1 501 "), received);
        }
        assertTrue(storage.get("k").isEmpty());
    }

    private URI start(StoreCodec codec) throws Exception {
        server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new StoreHandler(codec));
        server.start();
        return URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/API/Store.asmx");
    }

    private static Set<Path> bodyFiles() throws IOException {
        try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
            return files.filter(file -> file.getFileName().toString().startsWith("store-body-"))
                    .collect(Collectors.toSet());
        }
    }
}
