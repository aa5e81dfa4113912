package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.StoreLimits;
import org.storeservice.jetty.AddressRanges;
import org.storeservice.shadow.Wire.Binding;

/**
 * The shadow proxy between two real Store servers on ephemeral ports, driven by real clients: the shadow differs on
 * purpose (a smaller value limit), is stopped, or holds every write, and the tests check what the clients got, what
 * each store holds, what the differences file and the dropped-keys file say, and how often each write arrived.
 */
class ShadowProxyTest {
    private static final Pattern KEY = Pattern.compile("\"key\":\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final StoreLimits SAME = StoreLimits.defaults();
    /** Where the tests' clients, the proxy and the servers all are: trusted as a proxy where a test says so. */
    private static final AddressRanges LOOPBACK = AddressRanges.parse("127.0.0.1/32");
    /** The shadow's limit, below the primary's 4 MiB: values of more than 16 bytes differ. */
    private static final StoreLimits SMALLER = StoreLimits.builder().maxValueBytes(16).build();

    @TempDir
    Path directory;

    @Test
    void exactlyTheExpectedDifferencesAreWritten() throws Exception {
        try (Services services = new Services(directory, SMALLER, proxy -> { })) {
            URI endpoint = services.endpoint();
            Set<String> expected = new TreeSet<>();
            int requests = 0;
            for (Binding binding : Binding.values()) {
                for (boolean large : new boolean[] {false, true}) {
                    String key = binding + (large ? "-large" : "-small");
                    String value = large ? "a value of more than sixteen bytes" : "small";
                    assertTrue(Wire.send(Wire.writeString(endpoint, binding, key + "-string", value)).success());
                    assertTrue(Wire.send(Wire.writeBytes(endpoint, binding, key + "-bytes", value.getBytes(UTF_8))).success());
                    requests += 2;
                    if (large) {
                        expected.add(key + "-string");
                        expected.add(key + "-bytes");
                    }
                }
            }
            for (String query : new String[] {"?WSDL", "?disco", "", "?op=WriteString"}) {
                assertEquals(200, Wire.send(HttpRequest.newBuilder(URI.create(endpoint + query)).build()).status());
                requests++;
            }
            services.awaitOutcomes(requests);

            List<String> lines = Files.readAllLines(services.differences);
            Set<String> written = new TreeSet<>();
            for (String line : lines) {
                written.add(key(line));
                assertTrue(line.contains("Success</") && line.contains("Error</"), line);
            }
            assertEquals(expected, written, "the keys of the differences written");
            assertEquals(expected.size(), lines.size(), "one line per difference");
            assertEquals(expected.size(), services.count(ShadowResult.DIFFERING));
            assertEquals(requests - expected.size(), services.count(ShadowResult.MATCHED));
            assertEquals(Set.of(), listedKeys(services.droppedKeys), "nothing dropped");
        }
    }

    @Test
    void clientsGetThePrimarysAnswersByteForByte() throws Exception {
        try (Services services = new Services(directory, SMALLER, proxy -> { })) {
            URI proxy = services.endpoint();
            URI primary = services.primary.endpointUri();
            String path = proxy.getPath();
            String soap = "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>"
                    + "<WriteString xmlns=\"http://tempuri.org/\"><key>raw</key><value>a value longer than sixteen</value>"
                    + "</WriteString></soap:Body></soap:Envelope>";
            Map<String, String[]> cases = new TreeMap<>();
            cases.put("soap11 write", new String[] {"POST " + path + " HTTP/1.1\r\nContent-Type: text/xml; charset=utf-8\r\n"
                    + "SOAPAction: \"http://tempuri.org/WriteString\"\r\n", soap});
            cases.put("soap11 write, chunked", new String[] {"POST " + path + " HTTP/1.1\r\nContent-Type: text/xml; charset=utf-8\r\n"
                    + "SOAPAction: \"http://tempuri.org/WriteString\"\r\nTransfer-Encoding: chunked\r\n",
                    Integer.toHexString(soap.length()) + "\r\n" + soap + "\r\n0\r\n\r\n"});
            cases.put("get write", new String[] {"GET " + path + "/WriteString?key=g&value=%u00e9t%C3%A9 HTTP/1.1\r\n", ""});
            cases.put("get, missing parameter", new String[] {"GET " + path + "/WriteString?key=g HTTP/1.1\r\n", ""});
            cases.put("get, unknown method", new String[] {"GET " + path + "/Nope HTTP/1.1\r\n", ""});
            cases.put("post, wrong content type", new String[] {"POST " + path + "/WriteString HTTP/1.1\r\n"
                    + "Content-Type: text/plain\r\nContent-Length: 13\r\n", "key=a&value=b"});
            cases.put("soap, no content type", new String[] {"POST " + path + " HTTP/1.1\r\nContent-Length: "
                    + soap.length() + "\r\n", soap});
            cases.put("soap, malformed", new String[] {"POST " + path + " HTTP/1.1\r\nContent-Type: text/xml; charset=utf-8\r\n"
                    + "SOAPAction: \"http://tempuri.org/WriteString\"\r\nContent-Length: 9\r\n", "<soap:Env"});
            cases.put("soap, unknown action", new String[] {"POST " + path + " HTTP/1.1\r\nContent-Type: text/xml; charset=utf-8\r\n"
                    + "SOAPAction: \"http://tempuri.org/Nope\"\r\nContent-Length: " + soap.length() + "\r\n", soap});
            cases.put("soap, empty body", new String[] {"POST " + path + " HTTP/1.1\r\nContent-Type: text/xml; charset=utf-8\r\n"
                    + "Content-Length: 0\r\n", ""});
            cases.put("wsdl", new String[] {"GET " + path + "?WSDL HTTP/1.1\r\n", ""});
            cases.put("help page", new String[] {"GET " + path + " HTTP/1.1\r\n", ""});
            cases.put("head", new String[] {"HEAD " + path + "?WSDL HTTP/1.1\r\n", ""});
            cases.put("put", new String[] {"PUT " + path + " HTTP/1.1\r\nContent-Length: 2\r\n", "{}"});
            cases.put("options", new String[] {"OPTIONS " + path + " HTTP/1.1\r\n", ""});
            cases.put("trailing slash", new String[] {"GET " + path + "/ HTTP/1.1\r\n", ""});
            cases.put("another path", new String[] {"GET /elsewhere HTTP/1.1\r\n", ""});
            cases.put("encoded dots", new String[] {"GET " + path + "/%2e%2e/WriteString?key=d&value=v HTTP/1.1\r\n", ""});
            for (Map.Entry<String, String[]> c : cases.entrySet()) {
                byte[] body = c.getValue()[1].getBytes(UTF_8);
                String throughProxy = RawHttp.comparable(RawHttp.exchange(proxy, c.getValue()[0], body), proxy);
                String direct = RawHttp.comparable(RawHttp.exchange(primary, c.getValue()[0], body), primary);
                assertEquals(direct, throughProxy, c.getKey());
            }
        }
    }

    @Test
    void aShadowStoppedMidRunCostsClientsNothingAndTheKeysItMayLackAreListed() throws Exception {
        try (Services services = new Services(directory, SAME, proxy -> { })) {
            URI endpoint = services.endpoint();
            int writers = 4;
            int each = 60;
            ExecutorService clients = Executors.newFixedThreadPool(writers);
            List<Future<Integer>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                done.add(clients.submit(() -> {
                    int success = 0;
                    for (int i = 0; i < each; i++) {
                        Binding binding = Binding.values()[i % 4];
                        if (Wire.send(Wire.writeString(endpoint, binding, "w" + writer + "-" + i, "value " + i)).success()) {
                            success++;
                        }
                        if (writer == 0 && i == each / 3) {
                            services.shadow.stop(); // mid-run, while the other writers go on
                        }
                    }
                    return success;
                }));
            }
            for (Future<Integer> writer : done) {
                assertEquals(each, writer.get(120, TimeUnit.SECONDS), "every client answered Success by the primary");
            }
            clients.shutdown();
            services.awaitOutcomes((long) writers * each);

            Set<String> listed = listedKeys(services.droppedKeys);
            Map<String, String> primary = services.primaryStorage.contents();
            Map<String, String> shadow = services.shadowStorage.contents();
            assertEquals(writers * each, primary.size());
            List<String> unaccounted = new ArrayList<>();
            for (Map.Entry<String, String> entry : primary.entrySet()) {
                if (!entry.getValue().equals(shadow.get(entry.getKey())) && !listed.contains(entry.getKey())) {
                    unaccounted.add(entry.getKey());
                }
            }
            assertEquals(List.of(), unaccounted, "keys the shadow lacks that are not listed");
            assertFalse(listed.isEmpty(), "the writes after the stop are listed");
            assertEquals(listed.size(), services.count(ShadowResult.SHADOW_ERROR) + services.count(ShadowResult.DROPPED));
            assertTrue(shadow.size() < primary.size(), "the shadow missed the writes after its stop");
        }
    }

    @Test
    void aShadowThatHoldsEveryWriteNeitherDelaysClientsNorGrowsTheQueuePastItsBound() throws Exception {
        long bound = 32 * 1024;
        try (Services services = new Services(directory, SAME, proxy -> proxy.queueBytes(bound).shadowConcurrency(2))) {
            services.shadowStorage.shut(); // the shadow takes each copy and never answers, until opened
            URI endpoint = services.endpoint();
            int writes = 120;
            String value = "v".repeat(2000);
            long mostQueued = 0;
            for (int i = 0; i < writes; i++) {
                // Every answer comes back while the shadow answers nothing: no client waits for it.
                assertTrue(Wire.send(Wire.writeString(endpoint, Binding.values()[i % 4], "slow-" + i, value)).success());
                mostQueued = Math.max(mostQueued, services.proxy.queuedBytes());
            }
            // Each copy is queued or dropped just after its client's answer: wait until all are one or the other.
            services.await(() -> services.count(ShadowResult.DROPPED) + services.proxy.queuedCopies() == writes,
                    "every copy queued or dropped");
            assertTrue(mostQueued <= bound, "queued " + mostQueued + " bytes, bound " + bound);
            assertTrue(mostQueued > bound / 2, "the queue filled up: " + mostQueued);
            long dropped = services.count(ShadowResult.DROPPED);
            assertTrue(dropped > writes / 2, "most copies were dropped, not held: " + dropped);
            Set<String> listed = listedKeys(services.droppedKeys);
            assertEquals(dropped, listed.size(), "each dropped write's key listed");

            services.shadowStorage.open();
            services.awaitOutcomes(writes);
            Map<String, String> shadow = services.shadowStorage.contents();
            for (Map.Entry<String, String> entry : services.primaryStorage.contents().entrySet()) {
                assertTrue(entry.getValue().equals(shadow.get(entry.getKey())) || listed.contains(entry.getKey()),
                        entry.getKey() + " neither on the shadow nor listed");
            }
            assertEquals(writes - dropped, shadow.size(), "the copies that were queued all arrived");
        }
    }

    @Test
    void concurrentWritesOfSharedKeysLeaveBothStoresEqual() throws Exception {
        try (Services services = new Services(directory, SAME, proxy -> { })) {
            URI endpoint = services.endpoint();
            int writers = 8;
            int each = 80;
            ExecutorService clients = Executors.newFixedThreadPool(writers);
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                Random random = new Random(w);
                done.add(clients.submit(() -> {
                    for (int i = 0; i < each; i++) {
                        String key = "shared-" + random.nextInt(4);
                        Binding binding = Binding.values()[random.nextInt(4)];
                        byte[] value = new byte[1 + random.nextInt(64)];
                        random.nextBytes(value);
                        HttpRequest request = random.nextBoolean()
                                ? Wire.writeBytes(endpoint, binding, key, value)
                                : Wire.writeString(endpoint, binding, key, HexFormat.of().formatHex(value));
                        assertTrue(Wire.send(request).success());
                    }
                    return null;
                }));
            }
            for (Future<?> writer : done) {
                writer.get(120, TimeUnit.SECONDS);
            }
            clients.shutdown();
            services.awaitOutcomes((long) writers * each);

            assertEquals(services.primaryStorage.contents(), services.shadowStorage.contents());
            assertEquals((long) writers * each, services.count(ShadowResult.MATCHED));
            assertEquals(Set.of(), listedKeys(services.droppedKeys), "nothing dropped");
        }
    }

    @Test
    void noWriteIsSentTwiceToEitherSide() throws Exception {
        try (Services services = new Services(directory, SMALLER, proxy -> { })) {
            URI endpoint = services.endpoint();
            Set<String> keys = new HashSet<>();
            for (int i = 0; i < 40; i++) {
                String key = "once-" + i;
                keys.add(key);
                Binding binding = Binding.values()[i % 4];
                HttpRequest request = i % 2 == 0 ? Wire.writeString(endpoint, binding, key, "value " + i)
                        : Wire.writeBytes(endpoint, binding, key, ("value " + i).getBytes(UTF_8));
                assertTrue(Wire.send(request).success());
            }
            services.awaitOutcomes(keys.size());
            Map<String, Integer> once = new TreeMap<>();
            keys.forEach(key -> once.put(key, 1));
            assertEquals(once, services.primaryStorage.writeCounts(), "writes that reached the primary, per key");
            assertEquals(once, services.shadowStorage.writeCounts(), "writes that reached the shadow, per key");
        }
    }

    @Test
    void aBodyLargerThanTheProxyCopiesGoesToThePrimaryAloneAsItArrives() throws Exception {
        try (Services services = new Services(directory, SAME, proxy -> proxy.maxBodyBytes(1024))) {
            URI endpoint = services.endpoint();
            String large = "L".repeat(8 * 1024);
            assertTrue(Wire.send(Wire.writeString(endpoint, Binding.SOAP11, "large-length", large)).success());
            HttpRequest chunked = HttpRequest.newBuilder(endpoint)
                    .header("Content-Type", "text/xml; charset=utf-8")
                    .header("SOAPAction", "\"http://tempuri.org/WriteString\"")
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(
                            soapBody("large-chunked", large).getBytes(UTF_8))))
                    .build();
            assertTrue(Wire.send(chunked).success());
            assertTrue(Wire.send(Wire.writeString(endpoint, Binding.SOAP11, "small", "s")).success());
            services.awaitOutcomes(3);

            assertEquals(2, services.count(ShadowResult.NOT_MIRRORED));
            assertEquals(1, services.count(ShadowResult.MATCHED));
            assertEquals("text:" + large, services.primaryStorage.contents().get("large-length"));
            assertEquals("text:" + large, services.primaryStorage.contents().get("large-chunked"));
            assertEquals(Set.of("small"), services.shadowStorage.contents().keySet());
        }
    }

    @Test
    void aClientThatExpects100ContinueAsDotNetClientsDoIsServedAndMirrored() throws Exception {
        try (Services services = new Services(directory, SAME, proxy -> { })) {
            HttpRequest soap = Wire.writeString(services.endpoint(), Binding.SOAP11, "continued", "v");
            HttpRequest expecting = HttpRequest.newBuilder(soap, (name, value) -> true).expectContinue(true).build();
            assertTrue(Wire.send(expecting).success());
            services.awaitOutcomes(1);
            assertEquals(Map.of("continued", "text:v"), services.shadowStorage.contents());
            assertEquals(1, services.count(ShadowResult.MATCHED));
        }
    }

    @Test
    void aPrimaryThatDoesNotAnswerGetsTheClient502AndTheKeyListed() throws Exception {
        try (Services services = new Services(directory, SAME, proxy -> { })) {
            services.primary.stop();
            Wire.Seen seen = Wire.send(Wire.writeString(services.endpoint(), Binding.GET, "unanswered", "v"));
            assertEquals(502, seen.status());
            assertEquals("Bad Gateway", seen.text());
            services.awaitOutcomes(1);
            assertEquals(1, services.count(ShadowResult.PRIMARY_FAILED));
            assertEquals(Set.of("unanswered"), listedKeys(services.droppedKeys));
            assertEquals(Map.of(), services.shadowStorage.contents(), "nothing mirrored");
        }
    }

    @Test
    void bothServicesSeeTheClientsAddressAndHost() throws Exception {
        List<String> accessLines = Collections.synchronizedList(new ArrayList<>());
        try (Services services = new Services(directory, SAME,
                server -> server.trustedProxies(LOOPBACK).accessLog(accessLines::add),
                proxy -> proxy.trustedProxies(LOOPBACK))) {
            URI endpoint = services.endpoint();
            // A load balancer the proxy trusts (loopback here) said who the client was: both services see that client.
            HttpRequest forwarded = HttpRequest.newBuilder(URI.create(endpoint + "/WriteString?key=xff&value=v"))
                    .header("X-Forwarded-For", "192.0.2.7").GET().build();
            assertTrue(Wire.send(forwarded).success());
            Wire.Seen wsdl = Wire.send(HttpRequest.newBuilder(URI.create(endpoint + "?WSDL")).build());
            assertTrue(wsdl.text().contains("location=\"" + endpoint + "\""),
                    "the WSDL names the address the client called: " + endpoint);
            // A server logs a request once its answer is sent: both lines are there soon after the copy's outcome.
            services.await(() -> accessLines.stream().filter(line -> line.contains("key=xff")).count() == 2,
                    "the write logged by both servers");
            List<String> writes = accessLines.stream().filter(line -> line.contains("key=xff")).toList();
            assertEquals(2, writes.size(), "the write's line on the primary and on the shadow: " + accessLines);
            for (String line : writes) {
                assertTrue(line.startsWith("192.0.2.7 "), line);
            }
        }
    }

    @Test
    void forwardedHeadersFromAnUntrustedClientAreNotBelieved() throws Exception {
        List<String> accessLines = Collections.synchronizedList(new ArrayList<>());
        try (Services services = new Services(directory, SAME,
                server -> server.trustedProxies(LOOPBACK).accessLog(accessLines::add), proxy -> { })) {
            HttpRequest spoofed = HttpRequest.newBuilder(URI.create(services.endpoint() + "/WriteString?key=spoof&value=v"))
                    .header("X-Forwarded-For", "192.0.2.7").GET().build();
            assertTrue(Wire.send(spoofed).success());
            services.await(() -> accessLines.stream().filter(line -> line.contains("key=spoof")).count() == 2,
                    "the write logged by both servers");
            List<String> writes = accessLines.stream().filter(line -> line.contains("key=spoof")).toList();
            assertEquals(2, writes.size(), accessLines.toString());
            for (String line : writes) {
                assertTrue(line.startsWith("127.0.0.1 "), "the proxy's own client, not the header's: " + line);
            }
        }
    }

    private static String soapBody(String key, String value) {
        return "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">"
                + "<soap:Body><WriteString xmlns=\"http://tempuri.org/\"><key>" + key + "</key><value>" + value
                + "</value></WriteString></soap:Body></soap:Envelope>";
    }

    private static Set<String> listedKeys(Path file) throws IOException {
        Set<String> keys = new TreeSet<>();
        if (Files.exists(file)) {
            for (String line : Files.readAllLines(file)) {
                keys.add(key(line));
            }
        }
        return keys;
    }

    private static String key(String line) {
        Matcher matcher = KEY.matcher(line);
        assertTrue(matcher.find(), line);
        return matcher.group(1);
    }
}
