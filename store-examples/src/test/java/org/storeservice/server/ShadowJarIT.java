package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryVisitor;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StoredEntry;
import org.storeservice.jetty.StoreServer;

/**
 * The shaded jar's {@code shadow} command in a JVM of 64 MiB, in front of a shadow that takes every copy and never
 * answers, while clients write 96 MiB through it: every client gets the primary's Success, the proxy never runs out
 * of memory (it would exit: {@code -XX:+ExitOnOutOfMemoryError}), and every key, none of whose copies reached the
 * shadow, is listed for re-sync once it stops.
 */
@Timeout(300)
class ShadowJarIT {
    private static final Pattern KEY = Pattern.compile("\"key\":\"([^\"]*)\"");

    @TempDir
    Path dir;

    /** A memory storage whose writes wait until the test ends: a shadow that takes each copy and answers none. */
    private static final class HeldStorage implements Storage {
        final MemoryStorage entries = new MemoryStorage();
        final CountDownLatch released = new CountDownLatch(1);

        private boolean hold() throws IOException {
            try {
                released.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
            return false;
        }

        @Override
        public boolean putText(String key, String value, OverwritePolicy policy) throws IOException {
            return hold();
        }

        @Override
        public boolean putBytes(String key, InputStream content, OverwritePolicy policy) throws IOException {
            return hold();
        }

        @Override
        public Optional<StoredEntry> get(String key) throws IOException {
            return entries.get(key);
        }

        @Override
        public void scan(String keyPrefix, EntryVisitor visitor) throws IOException {
            entries.scan(keyPrefix, visitor);
        }

        @Override
        public void close() {
            released.countDown();
        }
    }

    @Test
    void aShadowThatNeverAnswersCostsTheClientsNothingAndTheProxyStaysWithinItsHeap() throws Exception {
        HeldStorage held = new HeldStorage();
        Path dropped = dir.resolve("dropped-keys.jsonl");
        Path stdout = dir.resolve("stdout");
        Path stderr = dir.resolve("stderr");
        try (StoreServer primary = StoreServer.builder().port(0).storageUri("memory:").build().start();
                StoreServer shadow = StoreServer.builder().port(0).storage(held).stopTimeout(Duration.ofSeconds(1)).build().start()) {
            Process proxy = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx64m", "-XX:+ExitOnOutOfMemoryError", "-jar", ServerJar.JAR.toAbsolutePath().toString(), "shadow",
                    "--port", "0", "--primary", primary.endpointUri().toString(), "--shadow", shadow.endpointUri().toString(),
                    "--shadow-queue-bytes", "" + 16 * 1024 * 1024, "--shadow-timeout", "5", "--stop-timeout", "2",
                    "--dropped-keys", dropped.toString(), "--differences", dir.resolve("differences.jsonl").toString())
                    .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
            try {
                URI endpoint = URI.create(ServerJar.firstLine(stdout, proxy, stderr, Duration.ofSeconds(60)));
                Set<String> written = writeThrough(endpoint, 8, 12, 1024 * 1024);
                assertTrue(proxy.isAlive(), "the proxy runs on:\n" + Files.readString(stderr));

                proxy.destroy(); // SIGTERM: in flight answered; queued copies dropped, unanswered ones failed, all listed
                int status = ServerJar.exitStatus(proxy, Duration.ofSeconds(60));
                // 1 when copies were still waiting for the shadow at the stop timeout, 0 when their own time-outs
                // ended them first; never the 3 of -XX:+ExitOnOutOfMemoryError.
                assertTrue(status == 0 || status == 1, "exit status " + status + ":\n" + Files.readString(stderr));
                String log = Files.readString(stderr);
                assertFalse(log.contains("OutOfMemoryError"), log);
                Set<String> listed = new TreeSet<>();
                for (String line : Files.readAllLines(dropped)) {
                    Matcher key = KEY.matcher(line);
                    assertTrue(key.find(), line);
                    listed.add(key.group(1));
                }
                assertEquals(written, listed, "every write's key, since the shadow applied none");
            } finally {
                proxy.destroyForcibly();
                held.released.countDown(); // the shadow's held writes end, so that it stops
            }
        }
    }

    /** {@code writers} clients each send {@code each} SOAP WriteBytes of {@code size} bytes; each must get Success. */
    private static Set<String> writeThrough(URI endpoint, int writers, int each, int size) throws Exception {
        HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        String content = Base64.getEncoder().encodeToString(new byte[size]);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        List<Future<Set<String>>> done = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            done.add(pool.submit(() -> {
                Set<String> keys = new TreeSet<>();
                for (int i = 0; i < each; i++) {
                    String key = "large-" + writer + "-" + i;
                    String body = "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">"
                            + "<soap:Body><WriteBytes xmlns=\"http://tempuri.org/\"><key>" + key + "</key><content>" + content
                            + "</content></WriteBytes></soap:Body></soap:Envelope>";
                    HttpResponse<String> answer = client.send(HttpRequest.newBuilder(endpoint)
                            .header("Content-Type", "text/xml; charset=utf-8")
                            .header("SOAPAction", "\"http://tempuri.org/WriteBytes\"")
                            .timeout(Duration.ofSeconds(60))
                            .POST(HttpRequest.BodyPublishers.ofString(body, UTF_8)).build(), HttpResponse.BodyHandlers.ofString());
                    assertTrue(answer.statusCode() == 200 && answer.body().contains("Success"), answer.body());
                    keys.add(key);
                }
                return keys;
            }));
        }
        Set<String> keys = new TreeSet<>();
        for (Future<Set<String>> writer : done) {
            keys.addAll(writer.get(240, TimeUnit.SECONDS));
        }
        pool.shutdown();
        return keys;
    }
}
