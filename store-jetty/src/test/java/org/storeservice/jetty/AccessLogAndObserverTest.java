package org.storeservice.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.codec.Binding;
import org.storeservice.codec.CompletedRequest;
import org.storeservice.codec.Outcome;

/** The access log's lines and the request observer, on a real server with a real client. */
@Timeout(60)
class AccessLogAndObserverTest {
    private static final MemoryStorage storage = new MemoryStorage();
    private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    private static final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private static final BlockingQueue<CompletedRequest> completed = new LinkedBlockingQueue<>();
    private static StoreServer server;

    @BeforeAll
    static void start() throws Exception {
        server = StoreServer.builder().port(0).storage(storage).accessLog(lines::add).requestObserver(completed::add)
                .build().start();
    }

    @AfterAll
    static void stop() {
        server.stop();
        storage.close();
    }

    /**
     * The next line about the request {@code marker} names: a line is written when its request completes, after its
     * answer, so another test's last line may still come after this test began.
     */
    private static String nextLineContaining(String marker) throws InterruptedException {
        String line;
        do {
            line = nextLine();
            assertNotNull(line, "no access-log line with " + marker + " within 10 s");
        } while (!line.contains(marker));
        return line;
    }

    private static String nextLine() throws InterruptedException {
        String line = lines.poll(10, TimeUnit.SECONDS);
        assertTrue(line != null, "no access log line");
        return line;
    }

    @Test
    void eachRequestIsOneExtendedNcsaLineWithUserAgentBindingAndOperation() throws Exception {
        lines.clear();
        URI endpoint = server.endpointUri();
        HttpResponse<String> soap = http.send(OpsRequests.soapWrite(endpoint, "logged", "v")
                .header("User-Agent", "Mozilla/4.0 (compatible; MSIE 6.0; MS Web Services Client Protocol 2.0.50727.9151)")
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, soap.statusCode());
        String line = nextLineContaining("MSIE 6.0");
        assertTrue(line.matches("127\\.0\\.0\\.1 - - \\[[^]]+] \"POST /API/Store\\.asmx HTTP/1\\.1\" 200 \\d+ \"\" "
                + "\"Mozilla/4\\.0 \\(compatible; MSIE 6\\.0; MS Web Services Client Protocol 2\\.0\\.50727\\.9151\\)\" "
                + "soap11 WriteString \\d+"), line);

        http.send(HttpRequest.newBuilder(URI.create(endpoint + "?disco")).header("User-Agent", "probe").build(),
                HttpResponse.BodyHandlers.ofString());
        String disco = nextLineContaining("?disco");
        assertTrue(disco.matches(".*\"GET /API/Store\\.asmx\\?disco HTTP/1\\.1\" 200 \\d+ \"\" \"probe\" metadata disco \\d+"), disco);
    }

    @Test
    void requestsOutsideTheEndpointAreLoggedWithoutBinding() throws Exception {
        lines.clear();
        assertEquals(404, http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + "/other"))
                .build(), HttpResponse.BodyHandlers.ofString()).statusCode());
        String line = nextLineContaining("/other");
        assertTrue(line.contains("\"GET /other HTTP/1.1\" 404 ") && line.matches(".* - - \\d+$"), line);
    }

    @Test
    void theObserverIsToldOfEachAnsweredRequest() throws Exception {
        completed.clear();
        URI endpoint = server.endpointUri();
        http.send(OpsRequests.getWrite(endpoint, "observed", "v").build(), HttpResponse.BodyHandlers.ofString());
        http.send(OpsRequests.soapWrite(endpoint, "", "v").build(), HttpResponse.BodyHandlers.ofString());
        List<CompletedRequest> reports = List.of(completed.poll(10, TimeUnit.SECONDS), completed.poll(10, TimeUnit.SECONDS));
        assertEquals(Binding.HTTP_GET, reports.get(0).binding());
        assertEquals("WriteString", reports.get(0).operation());
        assertEquals(Outcome.SUCCESS, reports.get(0).outcome());
        assertEquals(Binding.SOAP11, reports.get(1).binding());
        assertEquals(Outcome.ERROR, reports.get(1).outcome());
        assertTrue(reports.get(1).requestBodyBytes() > 200, reports.get(1).toString());
    }
}
