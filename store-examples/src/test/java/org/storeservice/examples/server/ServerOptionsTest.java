package org.storeservice.examples.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Test;

class ServerOptionsTest {

    @Test
    void defaultsServeTheEmbeddedSqliteFileOnLoopbackPort8080() throws UsageException {
        ServerOptions options = ServerOptions.parse(List.of());

        assertEquals(8080, options.port());
        assertEquals("127.0.0.1", options.host());
        assertEquals("sqlite:data/store.db", options.storageUri());
        assertEquals("http://tempuri.org/", options.namespace());
        assertEquals(4L * 1024 * 1024, options.maxRequestBytes());
        assertEquals(4L * 1024 * 1024, options.storeLimits().maxValueBytes());
        assertEquals(512, options.storeLimits().maxKeyLength());
        assertEquals(Duration.ofSeconds(30), options.idleTimeout());
        assertEquals(Duration.ofSeconds(10), options.stopTimeout());
        assertFalse(options.help());
    }

    @Test
    void takesValuesAsTheNextArgumentOrAfterEquals() throws UsageException {
        ServerOptions options = ServerOptions.parse(List.of("--port", "0", "--host=0.0.0.0", "--storage", "files:data",
                "--namespace=urn:x", "--max-request-bytes", "1000", "--max-value-bytes=2000", "--max-key-length", "30",
                "--idle-timeout", "0.5", "--stop-timeout=2"));

        assertEquals(0, options.port());
        assertEquals("0.0.0.0", options.host());
        assertEquals("files:data", options.storageUri());
        assertEquals("urn:x", options.namespace());
        assertEquals(1000, options.maxRequestBytes());
        assertEquals(2000, options.storeLimits().maxValueBytes());
        assertEquals(30, options.storeLimits().maxKeyLength());
        assertEquals(Duration.ofMillis(500), options.idleTimeout());
        assertEquals(Duration.ofSeconds(2), options.stopTimeout());
    }

    @Test
    void aValueMayContainEqualsSigns() throws UsageException {
        assertEquals("files:a=b", ServerOptions.parse(List.of("--storage=files:a=b")).storageUri());
    }

    @Test
    void theLastOfARepeatedOptionWins() throws UsageException {
        assertEquals(2, ServerOptions.parse(List.of("--port", "1", "--port", "2")).port());
    }

    @Test
    void helpIsAFlag() throws UsageException {
        assertTrue(ServerOptions.parse(List.of("--port", "1", "--help")).help());
    }

    @Test
    void wrongCommandLinesSayWhatIsWrongInOneLine() {
        assertMessage("unknown option: --bogus", "--bogus", "1");
        assertMessage("unknown option: --bogus", "--bogus");
        assertMessage("option --port needs a value", "--port");
        assertMessage("--port: not a whole number: eighty", "--port", "eighty");
        assertMessage("--port: 65536 is outside 0..65535", "--port", "65536");
        assertMessage("--max-request-bytes: -1 is outside 0..9223372036854775807", "--max-request-bytes", "-1");
        assertMessage("--max-key-length: 0 is outside 1..2147483647", "--max-key-length", "0");
        assertMessage("--idle-timeout: not a number of seconds: soon", "--idle-timeout", "soon");
        assertMessage("--stop-timeout: 0 is outside 0.001..31536000 seconds", "--stop-timeout", "0");
        assertMessage("option --storage needs a non-empty value", "--storage=");
        assertMessage("unexpected argument: serve-me", "serve-me");
    }

    @Test
    void theUsageNamesEveryOption() {
        for (String option : List.of("--port", "--host", "--storage", "--namespace", "--max-request-bytes",
                "--max-value-bytes", "--max-key-length", "--idle-timeout", "--stop-timeout", "--help")) {
            assertTrue(ServerOptions.USAGE.contains(option + " "), option);
        }
    }

    @Test
    void theOptionsConfigureTheServer() throws Exception {
        var server = ServerOptions.parse(List.of("--port", "0", "--storage", "memory:")).serverBuilder().build().start();
        try {
            assertTrue(server.port() > 0);
            assertEquals("127.0.0.1", server.endpointUri().getHost());
        } finally {
            server.stop();
        }
    }

    @Test
    void raisedLimitsLetALargerValueThrough() throws Exception {
        byte[] content = new byte[5 * 1024 * 1024];
        String base64 = Base64.getEncoder().encodeToString(content);
        String body = "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>"
                + "<WriteBytes xmlns=\"http://tempuri.org/\"><key>big</key><content>" + base64
                + "</content></WriteBytes></soap:Body></soap:Envelope>";
        assertEquals("Error", writeBytesResult(List.of("--max-request-bytes", "8000000"), body));
        assertEquals("Success", writeBytesResult(
                List.of("--max-request-bytes", "8000000", "--max-value-bytes", "6000000"), body));
    }

    /** The WriteBytesResult a server with {@code limitOptions} (on memory storage) answers to {@code body}. */
    private static String writeBytesResult(List<String> limitOptions, String body) throws Exception {
        List<String> args = new ArrayList<>(List.of("--port", "0", "--storage", "memory:"));
        args.addAll(limitOptions);
        var server = ServerOptions.parse(args).serverBuilder().build().start();
        try {
            var response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(server.endpointUri())
                            .header("Content-Type", "text/xml; charset=utf-8")
                            .header("SOAPAction", "\"http://tempuri.org/WriteBytes\"")
                            .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
            return response.body().replaceAll(".*<WriteBytesResult>(\\w+)</WriteBytesResult>.*", "$1");
        } finally {
            server.stop();
        }
    }

    private static void assertMessage(String message, String... args) {
        UsageException e = assertThrows(UsageException.class, () -> ServerOptions.parse(List.of(args)));
        assertEquals(message, e.getMessage());
    }
}
