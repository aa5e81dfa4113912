package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Random;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.jdbc.JdbcStorage;
import org.storeservice.jdbc.SqliteStorageConfig;
import org.storeservice.jetty.StoreServer;

/**
 * A WriteBytes of up to 64 KiB on SQLite is read where its body was decoded and queued to the writer, which answers
 * it; a larger one is written on a pool thread. Over a real socket, each answer is byte for byte the answer of a
 * server on {@code memory:} (which writes right where it decodes), faults included, and a content that breaks stores
 * nothing.
 */
class SqliteQueuedWriteBytesTest {
    private static final String NS = "http://tempuri.org/";

    @TempDir
    Path directory;
    private JdbcStorage sqlite;
    private StoreServer onSqlite;
    private StoreServer onMemory;
    private final HttpClient client = HttpClient.newHttpClient();

    @BeforeEach
    void start() throws Exception {
        sqlite = JdbcStorage.sqlite(SqliteStorageConfig.builder(directory.resolve("store.db")).build());
        onSqlite = StoreServer.builder().port(0).storage(sqlite).build().start();
        onMemory = StoreServer.builder().port(0).storage(new MemoryStorage()).build().start();
    }

    @AfterEach
    void stop() throws Exception {
        onSqlite.close();
        onMemory.close();
        sqlite.close();
    }

    @Test
    void smallAndLargeValuesAreStoredExactlyAndAnsweredAsOnMemory() throws Exception {
        for (int size : new int[] {0, 1000, 64 * 1024, 64 * 1024 + 1, 300_000}) {
            byte[] value = new byte[size];
            new Random(size).nextBytes(value);
            String body = writeBytes("k" + size, Base64.getEncoder().encodeToString(value));

            HttpResponse<String> answer = post(onSqlite, body);

            assertEquals(200, answer.statusCode(), answer.body());
            assertSameAnswer(post(onMemory, body), answer);
            assertArrayEquals(value, sqlite.get("k" + size).orElseThrow().bytes(), "size " + size);
        }
    }

    @Test
    void aContentThatBreaksIsAnsweredAsOnMemoryAndStoresNothing() throws Exception {
        byte[] previous = {1, 2, 3};
        assertEquals(200, post(onSqlite, writeBytes("kept", Base64.getEncoder().encodeToString(previous))).statusCode());
        String large = Base64.getEncoder().encodeToString(new byte[60_000]);
        String[] broken = {
            writeBytes("kept", large.substring(0, 40_000) + "!" + large.substring(40_000)), // not base64, mid-content
            writeBytes("kept", large).replace("</soap:Body>", "</soap:Bodyy>"), // a broken tail after the content
            writeBytes("kept", large + "=A"), // base64 going on after its padding
        };
        for (String body : broken) {
            HttpResponse<String> answer = post(onSqlite, body);

            assertFalse(answer.statusCode() == 200, answer.body());
            assertSameAnswer(post(onMemory, body), answer);
            assertArrayEquals(previous, sqlite.get("kept").orElseThrow().bytes(), "the previous value is kept");
        }
    }

    private static void assertSameAnswer(HttpResponse<String> expected, HttpResponse<String> actual) {
        assertEquals(expected.statusCode(), actual.statusCode());
        assertEquals(expected.headers().firstValue("Content-Type"), actual.headers().firstValue("Content-Type"));
        assertEquals(expected.body(), actual.body());
    }

    private HttpResponse<String> post(StoreServer server, String body) throws Exception {
        HttpRequest request = HttpRequest.newBuilder(server.endpointUri())
                .header("Content-Type", "text/xml; charset=utf-8")
                .header("SOAPAction", "\"" + NS + "WriteBytes\"")
                .POST(HttpRequest.BodyPublishers.ofString(body, UTF_8))
                .build();
        return client.send(request, HttpResponse.BodyHandlers.ofString(UTF_8));
    }

    private static String writeBytes(String key, String base64) {
        return "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">"
                + "<soap:Body><WriteBytes xmlns=\"" + NS + "\"><key>" + key + "</key><content>" + base64
                + "</content></WriteBytes></soap:Body></soap:Envelope>";
    }
}
