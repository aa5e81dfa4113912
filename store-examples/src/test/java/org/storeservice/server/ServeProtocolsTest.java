package org.storeservice.server;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.codec.Protocol;
import org.storeservice.codec.Protocols;
import org.storeservice.jetty.StoreServer;

/** {@code --protocols} and {@code --wsdl}: read as options, and end to end against a real server and client. */
class ServeProtocolsTest {
    private final HttpClient client = HttpClient.newHttpClient();

    private static ServeCommand parse(Map<String, String> environment, String... args) {
        Main main = new Main(ToolRun.context(InputStream.nullInputStream(), new ByteArrayOutputStream(),
                new ByteArrayOutputStream(), environment, hook -> { }));
        main.commandLine().parseArgs(args);
        return main.commandLine().getCommand();
    }

    private HttpResponse<byte[]> get(URI uri) throws Exception {
        return client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    @Test
    void protocolsDefaultToAllOfAsmxsAndComeFromTheFlagOrTheEnvironment() {
        assertEquals(Protocols.all(), parse(Map.of()).protocols);
        assertEquals(Protocols.of(Protocol.HTTP_SOAP, Protocol.DOCUMENTATION),
                parse(Map.of(), "--protocols", "HttpSoap,Documentation").protocols);
        assertEquals(Protocols.of(Protocol.HTTP_GET), parse(Map.of("STORE_PROTOCOLS", "HttpGet")).protocols);
        assertEquals(null, parse(Map.of()).wsdl);
        assertEquals(Path.of("own.wsdl"), parse(Map.of("STORE_WSDL", "own.wsdl")).wsdl);
    }

    @Test
    void anUnknownProtocolIsAOneLineUsageError() {
        ToolRun run = ToolRun.run("--protocols", "HttpSoap,Soap13");
        assertEquals(Main.EXIT_USAGE, run.status, run.toString());
        assertTrue(run.err.split("\\R")[0].startsWith(
                "store-server: Invalid value for option '--protocols': unknown protocol 'Soap13'; expected one of HttpSoap,"), run.err);
    }

    @Test
    void aServerWithoutHttpGetAnswersAGetAsAsmxDoesAndTakesLocalFormPosts() throws Exception {
        StoreServer server = parse(Map.of(), "--port", "0", "--storage", "memory:",
                "--protocols", "HttpSoap,HttpSoap12,HttpPostLocalhost,Documentation").serverBuilder().build().start();
        try {
            HttpResponse<byte[]> response = get(URI.create(server.endpointUri() + "/WriteString?key=k&value=v"));
            assertEquals(500, response.statusCode());
            assertTrue(new String(response.body(), StandardCharsets.UTF_8).contains(
                    "Request format is unrecognized for URL unexpectedly ending in &#39;/WriteString&#39;."));
            String wsdl = new String(get(URI.create(server.endpointUri() + "?wsdl")).body(), StandardCharsets.UTF_8);
            assertTrue(wsdl.contains("<wsdl:binding name=\"StoreSoap\"") && !wsdl.contains("StoreHttp"), wsdl);
            HttpResponse<String> post = client.send(HttpRequest.newBuilder(URI.create(server.endpointUri() + "/WriteString"))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("key=k&value=v")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, post.statusCode(), "HttpPostLocalhost takes a POST from this machine: " + post.body());
        } finally {
            server.stop();
        }
    }

    @Test
    void anOperatorsWsdlIsServedWithTheAddressTheClientUsed(@TempDir Path dir) throws Exception {
        StoreServer generated = parse(Map.of(), "--port", "0", "--storage", "memory:").serverBuilder().build().start();
        URI generatedUri = generated.endpointUri();
        String saved;
        try {
            saved = new String(get(URI.create(generatedUri + "?wsdl")).body(), StandardCharsets.UTF_8);
        } finally {
            generated.stop();
        }
        Path file = dir.resolve("clients.wsdl");
        Files.writeString(file, saved.replace(generatedUri.toString(), "http://old-iis.example/API/Store.asmx"));
        StoreServer server = parse(Map.of(), "--port", "0", "--storage", "memory:", "--wsdl", file.toString())
                .serverBuilder().build().start();
        try {
            byte[] expected = saved.replace(generatedUri.getAuthority(), server.endpointUri().getAuthority())
                    .getBytes(StandardCharsets.UTF_8);
            assertArrayEquals(expected, get(URI.create(server.endpointUri() + "?wsdl")).body());
        } finally {
            server.stop();
        }
    }

    @Test
    void aWsdlThatDoesNotDescribeTheServiceStopsTheStartWithOneLine(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("broken.wsdl");
        Files.writeString(file, "<wsdl:definitions xmlns:wsdl=\"http://schemas.xmlsoap.org/wsdl/\""
                + " targetNamespace=\"http://tempuri.org/\" />");
        ToolRun run = ToolRun.run("--port", "0", "--storage", "memory:", "--wsdl", file.toString());
        assertEquals(Main.EXIT_FAILURE, run.status, run.toString());
        assertEquals("store-server serve: --wsdl " + file + ": no binding 'StoreSoap' for protocol HttpSoap"
                + " (switch the protocol off, or describe it)", run.err.strip());
        assertEquals(0, run.out.length);

        run = ToolRun.run("--port", "0", "--storage", "memory:", "--wsdl", dir.resolve("missing.wsdl").toString());
        assertEquals(Main.EXIT_FAILURE, run.status, run.toString());
        assertEquals(1, run.err.strip().lines().count(), run.err);
        assertTrue(run.err.startsWith("store-server serve: --wsdl " + dir.resolve("missing.wsdl") + ": cannot read"), run.err);
    }
}
