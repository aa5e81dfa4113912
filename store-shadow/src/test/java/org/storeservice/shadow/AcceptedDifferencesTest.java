package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.StoreLimits;
import org.storeservice.shadow.Wire.Binding;

/** Accept rules with real Store servers: what they can never hide, and a bad file refused at start. */
class AcceptedDifferencesTest {
    @TempDir
    Path directory;

    /**
     * The shadow's value limit is 16 bytes, so a longer write is answered Success by the primary and Error by the
     * shadow: a real difference. Rules that would match every part of it (status, body, headers, any binding) must
     * not hide it.
     */
    @Test
    void aWriteAnsweredSuccessByOneAndErrorByTheOtherIsNeverAccepted() throws Exception {
        Path accept = Files.write(directory.resolve("everything.accept"), List.of(
                "* * status the statuses are ours to ignore", "* * body so are the bodies",
                "* * line-endings and line ends", "* * fault-text and a fault's text",
                "* * header:Content-Type and the type"));
        try (Services services = new Services(directory, StoreLimits.builder().maxValueBytes(16).build(),
                proxy -> proxy.accept(accept))) {
            int requests = 0;
            for (Binding binding : Binding.values()) {
                assertTrue(Wire.send(Wire.writeString(services.endpoint(), binding, binding + "-large",
                        "a value of more than sixteen bytes")).success());
                assertTrue(Wire.send(Wire.writeBytes(services.endpoint(), binding, binding + "-bytes",
                        "more than sixteen bytes of content".getBytes(UTF_8))).success());
                requests += 2;
            }
            services.awaitOutcomes(requests);
            assertEquals(requests, services.count(ShadowResult.DIFFERING), "every one a real difference");
            assertEquals(0, services.count(ShadowResult.ACCEPTED));
            for (String line : Files.readAllLines(services.differences)) {
                assertFalse(line.contains("\"accepted\""), line);
                assertTrue(line.contains("\"causes\":[\"the write answered 200 Success by the primary, 200 Error by the"
                        + " shadow\"]"), line);
            }
        }
    }

    /**
     * A write Store's codec refuses before its key (content after {@code </Envelope>}, invalid UTF-8) is classified
     * {@code none}, with no key; an ASMX primary (here a real server answering as ASMX does) answers it Success where the
     * Store shadow answers a fault. Rules for that binding's status, body and headers must not hide it.
     */
    @Test
    void aSuccessAgainstAFaultIsNeverAcceptedEvenForARequestWithoutAKey() throws Exception {
        byte[] success = ("<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap"
                + ".org/soap/envelope/\"><soap:Body><WriteStringResponse xmlns=\"http://tempuri.org/\"><WriteStringResult>"
                + "Success</WriteStringResult></WriteStringResponse></soap:Body></soap:Envelope>").getBytes(UTF_8);
        Path accept = Files.write(directory.resolve("none.accept"), List.of(
                "soap11 none status what the codec refuses is answered by status alone", "soap11 none body and its body",
                "soap11 WriteString body a write's body", "soap11 none header:Content-Type and the type", "soap11 none header:Cache-Control and caching",
                "soap11 none fault-text and a fault's text"));
        Map<String, Long> operations = new ConcurrentHashMap<>();
        Map<ShadowResult, Long> results = new ConcurrentHashMap<>();
        try (LegacyPrimary asmx = new LegacyPrimary((request, port) ->
                        new LegacyPrimary.Reply(200, "text/xml; charset=utf-8", success));
                StoreServerHandle shadow = new StoreServerHandle()) {
            ShadowProxy proxy = ShadowProxy.builder().port(0).primary(asmx.endpoint()).shadow(shadow.server.endpointUri())
                    .differences(directory.resolve("differences.jsonl")).accept(accept)
                    .observer((binding, operation, result) -> {
                        operations.merge(binding.tag() + " " + operation, 1L, Long::sum);
                        results.merge(result, 1L, Long::sum);
                    }).build().start();
            try {
                String envelope = "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas"
                        + ".xmlsoap.org/soap/envelope/\"><soap:Body><WriteString xmlns=\"http://tempuri.org/\"><key>k</key>"
                        + "<value>VALUE</value></WriteString></soap:Body></soap:Envelope>";
                byte[] trailing = (envelope.replace("VALUE", "v") + "<after/>").getBytes(UTF_8);
                byte[] invalidUtf8 = envelope.replace("VALUE", "\u0000").getBytes(UTF_8);
                invalidUtf8[envelope.indexOf("VALUE")] = (byte) 0xFF;
                for (byte[] body : List.of(trailing, invalidUtf8)) {
                    Wire.Seen seen = Wire.send(java.net.http.HttpRequest.newBuilder(proxy.endpointUri())
                            .timeout(java.time.Duration.ofSeconds(60)).header("Content-Type", "text/xml; charset=utf-8")
                            .header("SOAPAction", "\"http://tempuri.org/WriteString\"")
                            .POST(java.net.http.HttpRequest.BodyPublishers.ofByteArray(body)).build());
                    assertTrue(seen.success(), "the client has the primary's Success");
                }
                long deadline = System.nanoTime() + 60_000_000_000L;
                while (results.values().stream().mapToLong(Long::longValue).sum() < 2 && System.nanoTime() < deadline) {
                    Thread.sleep(10);
                }
            } finally {
                proxy.stop();
            }
            assertEquals(Map.of("soap11 none", 2L), operations, "both read without a key");
            assertEquals(Map.of(ShadowResult.DIFFERING, 2L), results, "a real difference each");
            for (String line : Files.readAllLines(directory.resolve("differences.jsonl"))) {
                assertFalse(line.contains("\"accepted\""), line);
                assertTrue(line.contains("the write answered 200 Success by the primary, 400 without Success or Error by"
                        + " the shadow"), line);
            }
        }
    }

    /** A Store server over memory on an ephemeral port. */
    private static final class StoreServerHandle implements AutoCloseable {
        final org.storeservice.jetty.StoreServer server;

        StoreServerHandle() throws java.io.IOException {
            server = org.storeservice.jetty.StoreServer.builder().port(0).storage(new WatchedStorage()).build().start();
        }

        @Override
        public void close() {
            server.stop();
        }
    }

    @Test
    void aBadAcceptFileFailsTheStartNamingItsLine() throws Exception {
        Path accept = Files.write(directory.resolve("bad.accept"), List.of("# fine", "httpget * line-endings"));
        ShadowProxy proxy = ShadowProxy.builder().port(0).primary(URI.create("http://127.0.0.1:9/API/Store.asmx"))
                .shadow(URI.create("http://127.0.0.1:9/API/Store.asmx")).accept(accept).build();
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, proxy::start);
        assertTrue(refused.getMessage().startsWith(accept + ":2: a rule is BINDING OPERATION WHAT REASON"),
                refused.getMessage());
    }
}
