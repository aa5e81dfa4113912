package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.jdbc.TestPostgres;

/**
 * Crash safety, end to end: the server jar runs in a child JVM and takes concurrent writes over HTTP (several
 * client threads, WriteString through HTTP POST and WriteBytes through SOAP 1.1, one unique key per write, each
 * value derived from its key); the JVM is killed with SIGKILL while writes are in flight; the server is started
 * again on the same storage; then the jar's {@code export} must show every write that was answered
 * {@code Success} with exactly the value sent, and nothing else but whole values that a client sent (a write in
 * flight at the kill may be there or not, but never in part).
 *
 * <p>Every wait is bounded; the load is bounded in count and time and goes to 127.0.0.1 only.
 */
@Timeout(600)
class CrashRecoveryIT {
    private static final int WRITERS = 6;
    /** The kill comes once this many writes were acknowledged... */
    private static final int ACKNOWLEDGED_BEFORE_KILL = 1_500;
    /** ...or after this long, whichever is first (a slow machine gets a smaller sample, not a failure). */
    private static final Duration LOAD_LIMIT = Duration.ofSeconds(90);
    private static final int MAX_WRITES_PER_WRITER = 20_000;
    private static final Duration STEP = Duration.ofSeconds(120);

    @TempDir
    Path directory;

    @Test
    void sqliteWithSynchronousFullKeepsEveryAcknowledgedWriteWhole() throws Exception {
        crashAndCheck("sqlite", "sqlite:" + directory.resolve("data/store.db") + "?synchronous=FULL");
    }

    @Test
    void postgresqlKeepsEveryAcknowledgedWriteWhole() throws Exception {
        try (TestPostgres postgres = TestPostgres.connect()) {
            // A loaded machine may take longer than the default 5 s pool wait to hand the restarted server its
            // first connection (PostgreSQL is still cleaning up the killed server's backends): a slow start is not
            // what this test checks, so both servers may wait up to 60 s; every durability check is unchanged.
            crashAndCheck("postgresql", postgres.uri("crash") + "&poolTimeoutMillis=60000");
        }
    }

    private void crashAndCheck(String name, String storage) throws Exception {
        HttpClient http = WireWrites.client();
        Load load;
        int inFlightAtKill;
        ServerJar.Running first = serve(storage, "first");
        try {
            load = new Load(http, first.endpoint());
            load.start();
            load.awaitAcknowledged(ACKNOWLEDGED_BEFORE_KILL, LOAD_LIMIT);
            inFlightAtKill = load.killWhileWritesAreInFlight(first.process());
            assertEquals(137, ServerJar.exitStatus(first.process(), STEP), "the server's JVM did not die of SIGKILL (128 + 9)");
            load.awaitStopped(STEP);
        } finally {
            first.process().destroyForcibly();
        }
        assertEquals(List.of(), load.unexpected, "writes that failed before the kill");
        assertTrue(inFlightAtKill > 0, "no write was in flight at the kill");
        assertTrue(!load.acknowledged.isEmpty(), "no write was acknowledged before the kill");

        ServerJar.Running second = serve(storage, "second");
        Map<String, ExportedEntry> exported;
        try {
            assertTrue(WireWrites.writeString(http, second.endpoint(), "after/restart", "serving again"),
                    "a write after the restart failed");
            exported = export(storage); // while the restarted server runs, as an operator would
            second.process().destroy(); // SIGTERM
            ServerJar.exitStatus(second.process(), STEP);
        } finally {
            second.process().destroyForcibly();
        }

        List<String> problems = new ArrayList<>();
        for (String key : load.acknowledged) {
            ExportedEntry entry = exported.get(key);
            if (entry == null) {
                problems.add("acknowledged, then lost: " + key);
            } else {
                check(key, entry, problems);
            }
        }
        int unacknowledgedStored = 0;
        for (Map.Entry<String, ExportedEntry> entry : exported.entrySet()) {
            String key = entry.getKey();
            if (key.equals("after/restart")) {
                continue;
            }
            if (!load.sent.contains(key)) {
                problems.add("an entry no client wrote: " + key);
                continue;
            }
            if (!load.acknowledged.contains(key)) {
                unacknowledgedStored++;
                check(key, entry.getValue(), problems);
            }
        }
        assertEquals(new ExportedEntry(false, "serving again".getBytes(UTF_8)), exported.get("after/restart"));
        assertEquals(List.of(), problems.subList(0, Math.min(problems.size(), 20)), problems.size() + " problems");
        // The numbers, for the build log: how much this run actually checked.
        System.out.printf("CrashRecoveryIT %s: %d writes sent, %d acknowledged, %d in flight at SIGKILL; after the"
                        + " restart %d entries exported: all %d acknowledged writes exact, %d unacknowledged ones"
                        + " stored whole, none partial%n", name, load.sent.size(), load.acknowledged.size(),
                inFlightAtKill, exported.size(), load.acknowledged.size(), unacknowledgedStored);
    }

    /** Adds a problem unless {@code entry} is exactly what was sent under {@code key}, of the right kind. */
    private static void check(String key, ExportedEntry entry, List<String> problems) {
        boolean bytes = isBytes(key);
        byte[] expected = bytes ? bytesFor(key) : textFor(key).getBytes(UTF_8);
        if (entry.bytes() != bytes) {
            problems.add("wrong type for " + key);
        } else if (!Arrays.equals(expected, entry.value())) {
            problems.add("not the value sent (" + entry.value().length + " of " + expected.length + " bytes): " + key);
        }
    }

    // ---- the server and its export -----------------------------------------------------------------------

    private ServerJar.Running serve(String storage, String label) throws IOException, InterruptedException {
        return ServerJar.serve(directory, label, Duration.ofSeconds(60), "--port", "0", "--storage", storage);
    }

    /** The jar's {@code export}, in a child JVM of its own. */
    private Map<String, ExportedEntry> export(String storage) throws Exception {
        Path out = directory.resolve("export.jsonl");
        Path err = directory.resolve("export.err");
        Process export = ServerJar.command("export", "--storage", storage)
                .redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        try {
            assertEquals(0, ServerJar.exitStatus(export, STEP), Files.readString(err));
        } finally {
            export.destroyForcibly();
        }
        return ExportedEntry.parse(Files.readAllLines(out, UTF_8));
    }

    // ---- the load ------------------------------------------------------------------------------------------

    /** The client threads and what they saw. */
    private static final class Load {
        final Set<String> sent = ConcurrentHashMap.newKeySet();
        final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
        final List<String> unexpected = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final AtomicInteger inFlight = new AtomicInteger();
        private final ExecutorService writers = Executors.newFixedThreadPool(WRITERS);
        private final HttpClient http;
        private final URI endpoint;
        private volatile boolean killing;

        Load(HttpClient http, URI endpoint) {
            this.http = http;
            this.endpoint = endpoint;
        }

        void start() {
            for (int w = 0; w < WRITERS; w++) {
                int writer = w;
                writers.submit(() -> write(writer));
            }
        }

        private void write(int writer) {
            for (int seq = 0; seq < MAX_WRITES_PER_WRITER && !killing; seq++) {
                String key = "crash/w" + writer + "/" + seq + (seq % 2 == 0 ? "/text" : "/bytes");
                sent.add(key);
                inFlight.incrementAndGet();
                try {
                    boolean success = isBytes(key)
                            ? WireWrites.writeBytes(http, endpoint, key, bytesFor(key))
                            : WireWrites.writeString(http, endpoint, key, textFor(key));
                    if (success) {
                        acknowledged.add(key);
                    } else if (!killing) {
                        unexpected.add(key + ": answered, but not Success");
                    }
                } catch (IOException e) {
                    if (!killing) {
                        unexpected.add(key + ": " + e);
                    }
                    return; // the server is gone
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } finally {
                    inFlight.decrementAndGet();
                }
            }
        }

        void awaitAcknowledged(int count, Duration limit) throws InterruptedException {
            long deadline = System.nanoTime() + limit.toNanos();
            while (acknowledged.size() < count && System.nanoTime() - deadline < 0 && unexpected.isEmpty()) {
                Thread.sleep(10);
            }
        }

        /** SIGKILLs {@code server} as soon as a write is in flight (bounded); returns how many were. */
        int killWhileWritesAreInFlight(Process server) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (inFlight.get() == 0 && System.nanoTime() - deadline < 0) {
                Thread.sleep(1);
            }
            int writing = inFlight.get();
            killing = true;
            server.destroyForcibly(); // on Linux: SIGKILL to the JVM itself, started without a shell
            return writing;
        }

        void awaitStopped(Duration limit) throws InterruptedException {
            writers.shutdown();
            if (!writers.awaitTermination(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                writers.shutdownNow();
                fail("client threads still running " + limit + " after the kill");
            }
        }
    }

    // ---- values and requests -------------------------------------------------------------------------------

    private static boolean isBytes(String key) {
        return key.endsWith("/bytes");
    }

    /** Text derived from the key: it starts with the key, so no value can pass for another key's; 50..4,000 chars. */
    static String textFor(String key) {
        int length = 50 + Math.floorMod(key.hashCode(), 4_000);
        StringBuilder text = new StringBuilder(length + 8).append(key).append('|');
        while (text.length() < length) {
            text.append("é😀ω-"); // two-, four- and two-byte UTF-8, and a surrogate pair in UTF-16
        }
        return text.append("|end").toString();
    }

    /** Bytes derived from the key, 1..48,000 of them, NULs included. */
    static byte[] bytesFor(String key) {
        Random random = new Random(key.hashCode());
        byte[] bytes = new byte[1 + Math.floorMod(key.hashCode() * 31, 48_000)];
        random.nextBytes(bytes);
        bytes[0] = 0;
        return bytes;
    }
}
