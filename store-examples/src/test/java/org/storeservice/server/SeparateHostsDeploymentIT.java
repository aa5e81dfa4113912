package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StoredEntry;
import org.storeservice.api.storage.Storages;

/**
 * The highly available kit on separate hosts: every host of deploy/ha/inventory.example's layout (three database
 * hosts, each an etcd member and a Patroni-managed PostgreSQL node; two Store servers; HAProxy) in a network
 * namespace of its own, on a private /24 that exists only inside this test (its own bridge, no uplink, no default
 * route). The kit is rendered from an inventory with TLS (make-tls.sh; the servers connect with sslmode=verify-full)
 * and started with start.sh, each host's commands run in its namespace. Writers go through HAProxy and straight to
 * each server while the primary's postmaster is killed, then the primary host's link is taken down and brought back.
 * Asserted: no acknowledged write lost, at most one Error per server per event, each server's readiness 503 while
 * its writes could not commit, and each server's logged outage within 1 s of what its own clients saw.
 *
 * <p>Needs root, iproute2 and what HighAvailabilityIT needs; runs when {@code STORE_TEST_HA=true} (as {@code .ci/run}
 * sets it), fails rather than skips under {@code CI=true}. Removes its namespaces and bridge whatever happens.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SeparateHostsDeploymentIT {
    private static final List<String> DATABASES = List.of("pg1", "pg2", "pg3");
    private static final List<String> SERVERS = List.of("store1", "store2");
    private static final Map<String, Integer> HOST_NUMBER = Map.of("pg1", 11, "pg2", 12, "pg3", 13, "store1", 21,
            "store2", 22, "lb", 30);
    private static final int WRITERS_PER_TARGET = 2;

    private static String prefix;
    private static String network;
    private static Path directory;
    private static Path repository;
    private static boolean namespacesMade;

    private record Write(String target, String key, String value, long started, long answered, boolean success,
            boolean error) {
    }

    private record Readiness(String server, long at, int status) {
    }

    @BeforeAll
    static void startOnSeparateHosts() throws Exception {
        String why = "the separate-hosts test runs with STORE_TEST_HA=true (as .ci/run sets it), as root, with iproute2,"
                + " postgresql, patroni, etcd-server, haproxy, jq and openssl installed";
        boolean enabled = "true".equals(System.getenv("STORE_TEST_HA"));
        if ("true".equals(System.getenv("CI"))) {
            assertTrue(enabled, why);
        }
        if (!enabled) {
            System.out.println("SeparateHostsDeploymentIT skipped: " + why);
            Assumptions.abort(why);
        }
        repository = Path.of("").toAbsolutePath().getParent();
        directory = Files.createTempDirectory("store-hosts-");
        // The postgres user, as which Patroni runs, must reach its host's directory below this one.
        Files.setPosixFilePermissions(directory, java.nio.file.attribute.PosixFilePermissions.fromString("rwxr-xr-x"));
        prefix = "sh" + Integer.toHexString(ThreadLocalRandom.current().nextInt(0x1000, 0xffff));
        network = "10.213." + ThreadLocalRandom.current().nextInt(2, 250);
        makeNamespaces();
        Path inventory = directory.resolve("hosts.inventory");
        StringBuilder text = new StringBuilder("cluster store-ha\nnetwork " + network + ".0/24\n")
                .append("secrets ").append(directory.resolve("secrets")).append('\n')
                .append("tls ").append(directory.resolve("tls")).append('\n');
        for (String db : DATABASES) {
            text.append("host ").append(db).append(' ').append(address(db)).append(" etcd postgres\n");
        }
        for (String server : SERVERS) {
            text.append("host ").append(server).append(' ').append(address(server)).append(" store\n");
        }
        text.append("host lb ").append(address("lb")).append(" haproxy\n");
        Files.writeString(inventory, text);
        run(Duration.ofMinutes(1), List.of("bash", script("make-tls.sh"), inventory.toString(),
                directory.resolve("tls").toString()));
        run(Duration.ofMinutes(5), List.of("bash", script("start.sh"), inventory.toString()));
    }

    @AfterAll
    static void stopAndRemoveTheHosts() throws Exception {
        if (directory == null) {
            return;
        }
        try {
            run(Duration.ofMinutes(3), List.of("bash", script("stop.sh"), "--purge"));
        } finally {
            if (namespacesMade) {
                for (String host : HOST_NUMBER.keySet()) {
                    quietly("ip", "netns", "del", namespace(host));
                }
                quietly("ip", "link", "del", prefix + "br");
            }
        }
    }

    @Test
    void writesSurviveAKilledPostmasterAndAnIsolatedPrimaryHost() throws Exception {
        List<Write> writes = Collections.synchronizedList(new ArrayList<>());
        List<Readiness> readiness = Collections.synchronizedList(new ArrayList<>());
        AtomicBoolean running = new AtomicBoolean(true);
        List<Thread> threads = new ArrayList<>();
        for (String target : List.of("lb", "store1", "store2")) {
            for (int w = 0; w < WRITERS_PER_TARGET; w++) {
                String writer = target + "-" + w;
                threads.add(start(() -> write(writer, endpoint(target), target, running, writes)));
            }
        }
        for (String server : SERVERS) {
            threads.add(start(() -> watchReadiness(server, running, readiness)));
        }
        awaitSuccessAfter(System.nanoTime(), writes);

        List<String> events = new ArrayList<>();
        List<Long> times = new ArrayList<>();
        List<Long> wallTimes = new ArrayList<>();
        String primary = primary();
        events.add("postmaster of " + primary + " killed");
        times.add(System.nanoTime());
        wallTimes.add(System.currentTimeMillis());
        long postmaster = Long.parseLong(Files.readAllLines(hosts().resolve(primary + "/data/postmaster.pid")).get(0));
        ProcessHandle.of(postmaster).orElseThrow().destroyForcibly();
        awaitSuccessAfter(times.get(0), writes);
        awaitHealthyCluster();

        primary = primary();
        events.add("link of " + primary + " down, then up");
        times.add(System.nanoTime());
        wallTimes.add(System.currentTimeMillis());
        run(Duration.ofSeconds(30), List.of("ip", "netns", "exec", namespace(primary), "ip", "link", "set", "eth0", "down"));
        // The link stays down until another node is primary and a write begun after that has committed: the servers
        // then waited out the whole failover (the socket time-out, the old primary's lock, the promotion).
        String isolated = primary;
        String promoted = awaitPrimaryOtherThan(isolated);
        long promotedAt = System.nanoTime();
        System.out.println(promoted + " is primary; " + isolated + " is cut off");
        awaitSuccessAfter(promotedAt, writes);
        run(Duration.ofSeconds(30), List.of("ip", "netns", "exec", namespace(primary), "ip", "link", "set", "eth0", "up"));
        awaitHealthyCluster();
        Thread.sleep(2_000);
        running.set(false);
        for (Thread thread : threads) {
            thread.join(TimeUnit.MINUTES.toMillis(2));
        }

        for (String host : List.of("store1", "store2")) {
            Files.readAllLines(hosts().resolve(host).resolve("store.log")).stream()
                    .filter(line -> line.contains(" WARN ") || line.contains(" ERROR "))
                    .forEach(line -> System.out.println("  " + host + ": " + line));
        }
        List<Write> all = List.copyOf(writes);
        long successes = all.stream().filter(Write::success).count();
        System.out.printf("Separate hosts: %d writes, %d Success%n", all.size(), successes);
        for (int e = 0; e < events.size(); e++) {
            long from = times.get(e);
            long to = e + 1 < times.size() ? times.get(e + 1) : Long.MAX_VALUE;
            for (String server : SERVERS) {
                List<Write> its = all.stream().filter(w -> w.target().equals(server) && w.answered() >= from
                        && w.started() < to).toList();
                long seen = its.stream().mapToLong(w -> w.answered() - w.started()).max().orElse(0);
                long errors = its.stream().filter(w -> !w.success()).count();
                Optional<Long> logged = loggedOutage(server, wallTimes.get(e),
                        e + 1 < wallTimes.size() ? wallTimes.get(e + 1) : Long.MAX_VALUE);
                boolean notReady = readiness.stream().anyMatch(r -> r.server().equals(server) && r.at() >= from
                        && r.at() < to && r.status() == 503);
                System.out.printf("  %s, %s: slowest write %d ms, logged outage %s ms, %d not Success, readiness 503"
                        + " seen: %s%n", events.get(e), server, TimeUnit.NANOSECONDS.toMillis(seen),
                        logged.map(String::valueOf).orElse("none"), errors, notReady);
                assertTrue(errors <= 1, events.get(e) + ": " + server + " answered " + errors + " writes without Success");
                if (TimeUnit.NANOSECONDS.toMillis(seen) > 1_000) {
                    assertTrue(logged.isPresent(), server + " logged no outage for " + events.get(e));
                    assertTrue(Math.abs(logged.get() - TimeUnit.NANOSECONDS.toMillis(seen)) <= 1_000, server
                            + " logged an outage of " + logged.get() + " ms; its clients waited "
                            + TimeUnit.NANOSECONDS.toMillis(seen) + " ms");
                }
                if (TimeUnit.NANOSECONDS.toMillis(seen) > 3_000) { // a probe takes up to its 2 s time-out
                    assertTrue(notReady, server + " never answered 503 on readiness while its writes waited");
                }
            }
            long throughBalancer = all.stream().filter(w -> w.target().equals("lb") && !w.success()
                    && w.answered() >= from && w.answered() < to).count();
            assertTrue(throughBalancer <= SERVERS.size(), events.get(e) + ": " + throughBalancer
                    + " writes through HAProxy without Success");
        }
        assertNothingLost(all);
    }

    /** The longest outage (ms) {@code server} logged as ending between the two wall-clock times (ms), if any. */
    private static Optional<Long> loggedOutage(String server, long from, long to) throws IOException {
        Pattern again = Pattern.compile("^(\\S+) WARN .*PostgreSQL writes commit again after (\\d+) ms");
        java.time.format.DateTimeFormatter format = java.time.format.DateTimeFormatter.ofPattern(
                "yyyy-MM-dd'T'HH:mm:ss.SSSZ");
        Optional<Long> longest = Optional.empty();
        for (String line : Files.readAllLines(hosts().resolve(server).resolve("store.log"))) {
            Matcher matcher = again.matcher(line);
            if (matcher.find()) {
                long at = java.time.OffsetDateTime.parse(matcher.group(1), format).toInstant().toEpochMilli();
                long outage = Long.parseLong(matcher.group(2));
                if (at >= from && at < to && longest.map(l -> l < outage).orElse(true)) {
                    longest = Optional.of(outage);
                }
            }
        }
        return longest;
    }

    private static void assertNothingLost(List<Write> all) throws Exception {
        String url = "jdbc:postgresql://" + String.join(",", DATABASES.stream().map(d -> address(d) + ":5432").toList())
                + "/store?user=store&targetServerType=primary&ssl=true&sslmode=verify-full&sslrootcert="
                + directory.resolve("tls").resolve("ca.crt") + "&passwordFile="
                + directory.resolve("secrets").resolve("store-app.password");
        int checked = 0;
        try (Storage storage = Storages.open(url)) {
            for (Write write : all) {
                if (write.success()) {
                    Optional<StoredEntry> stored = storage.get(write.key());
                    assertTrue(stored.isPresent(), "acknowledged write of " + write.key() + " lost");
                    assertEquals(write.value(), stored.get().text(), write.key());
                    checked++;
                }
            }
        }
        System.out.printf("Separate hosts: %d acknowledged writes read back exact%n", checked);
    }

    /** HTTP GET WriteString, one at a time, unique keys, until told to stop. */
    private static void write(String writer, String endpoint, String target, AtomicBoolean running, List<Write> writes) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        for (int i = 0; running.get(); i++) {
            String key = writer + "-" + i;
            String value = "v" + i;
            long started = System.nanoTime();
            boolean success = false;
            boolean error = false;
            try {
                HttpResponse<String> answer = client.send(HttpRequest.newBuilder(
                        URI.create(endpoint + "/WriteString?key=" + key + "&value=" + value))
                        .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
                success = answer.statusCode() == 200 && answer.body().contains(">Success<");
                error = !success;
            } catch (IOException e) {
                error = true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            writes.add(new Write(target, key, value, started, System.nanoTime(), success, error));
        }
    }

    private static void watchReadiness(String server, AtomicBoolean running, List<Readiness> readiness) {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        while (running.get()) {
            int status;
            try {
                status = client.send(HttpRequest.newBuilder(URI.create("http://" + address(server) + ":8081/health/ready"))
                        .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.discarding()).statusCode();
            } catch (IOException e) {
                status = -1;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
            readiness.add(new Readiness(server, System.nanoTime(), status));
            try {
                Thread.sleep(200);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void awaitSuccessAfter(long since, List<Write> writes) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline) {
            synchronized (writes) {
                if (writes.stream().anyMatch(w -> w.started() > since && w.success())) {
                    return;
                }
            }
            Thread.sleep(50);
        }
        fail("no write succeeded within 2 minutes");
    }

    /** A leader, a synchronous standby and all three members running, asked of every member's Patroni in turn. */
    private static void awaitHealthyCluster() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        String cluster = "";
        while (System.nanoTime() < deadline) {
            cluster = cluster();
            if (cluster.contains("\"leader\"") && cluster.contains("\"sync_standby\"")
                    && cluster.split("\"state\": ?\"(running|streaming)\"", -1).length - 1 >= 3) {
                return;
            }
            Thread.sleep(250);
        }
        fail("the cluster did not recover within 2 minutes: " + cluster);
    }

    private static String cluster() throws InterruptedException {
        for (String db : DATABASES) {
            try {
                HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create("http://" + address(db) + ":8008/cluster")).timeout(Duration.ofSeconds(2)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200) {
                    return response.body();
                }
            } catch (IOException e) {
                // that host is away: ask the next
            }
        }
        return "";
    }

    /** Waits until a node other than {@code isolated} answers as primary, and names it. */
    private static String awaitPrimaryOtherThan(String isolated) throws Exception {
        return awaitPrimary(DATABASES.stream().filter(db -> !db.equals(isolated)).toList());
    }

    private static String primary() throws Exception {
        return awaitPrimary(DATABASES);
    }

    /** The first of {@code candidates} whose Patroni answers 200 on /primary, asked until one does (2 minutes at most). */
    private static String awaitPrimary(List<String> candidates) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline) {
            for (String db : candidates) {
                try {
                    if (HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://" + address(db)
                            + ":8008/primary")).timeout(Duration.ofSeconds(2)).build(),
                            HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                        return db;
                    }
                } catch (IOException e) {
                    // not answering: not the primary
                }
            }
            Thread.sleep(200);
        }
        throw new AssertionError("none of " + candidates + " became primary within 2 minutes: " + cluster());
    }

    /** The bridge (the test's own address, .1) and one namespace per host, each with one veth end and one address. */
    private static void makeNamespaces() throws Exception {
        String bridge = prefix + "br";
        namespacesMade = true;
        run(Duration.ofSeconds(30), List.of("ip", "link", "add", bridge, "type", "bridge"));
        run(Duration.ofSeconds(30), List.of("ip", "addr", "add", network + ".1/24", "dev", bridge));
        run(Duration.ofSeconds(30), List.of("ip", "link", "set", bridge, "up"));
        for (Map.Entry<String, Integer> host : HOST_NUMBER.entrySet()) {
            String ns = namespace(host.getKey());
            String outside = prefix + host.getValue();
            run(Duration.ofSeconds(30), List.of("ip", "netns", "add", ns));
            run(Duration.ofSeconds(30), List.of("ip", "link", "add", outside, "type", "veth", "peer", "name", "eth0",
                    "netns", ns));
            run(Duration.ofSeconds(30), List.of("ip", "link", "set", outside, "master", bridge, "up"));
            run(Duration.ofSeconds(30), List.of("ip", "netns", "exec", ns, "ip", "addr", "add",
                    network + "." + host.getValue() + "/24", "dev", "eth0"));
            run(Duration.ofSeconds(30), List.of("ip", "netns", "exec", ns, "ip", "link", "set", "eth0", "up"));
            run(Duration.ofSeconds(30), List.of("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up"));
        }
    }

    /** Where start.sh renders every host's directory. */
    private static Path hosts() {
        return directory.resolve("hosts");
    }

    private static String namespace(String host) {
        return prefix + "-" + host;
    }

    private static String address(String host) {
        return network + "." + HOST_NUMBER.get(host);
    }

    private static String endpoint(String target) {
        return target.equals("lb") ? "http://" + address("lb") + ":80/API/Store.asmx"
                : "http://" + address(target) + ":8080/API/Store.asmx";
    }

    private static String script(String name) {
        return repository.resolve("deploy").resolve("ha").resolve(name).toString();
    }

    private static Thread start(Runnable task) {
        Thread thread = new Thread(task, "separate-hosts");
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** Runs {@code command} with the deployment's environment, bounded; prints what it printed; fails if it failed. */
    private static void run(Duration bound, List<String> command) throws IOException, InterruptedException {
        Path output = Files.createTempFile("store-hosts", ".out");
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().put("STORE_HA_DIR", hosts().toString());
        builder.environment().put("STORE_HA_EXEC", "ip netns exec " + prefix + "-{host}");
        builder.environment().put("STORE_JAR", ServerJar.JAR.toAbsolutePath().toString());
        Process process = builder.start();
        boolean ended = process.waitFor(bound.toMillis(), TimeUnit.MILLISECONDS);
        if (!ended) {
            process.destroyForcibly();
        }
        String printed = Files.readString(output, UTF_8);
        Files.delete(output);
        System.out.print(printed);
        assertTrue(ended, command + " did not end within " + bound);
        assertEquals(0, process.exitValue(), command + " failed: " + printed);
    }

    private static void quietly(String... command) {
        try {
            new ProcessBuilder(command).redirectErrorStream(true).start().waitFor(30, TimeUnit.SECONDS);
        } catch (IOException e) {
            System.out.println("could not run " + String.join(" ", command) + ": " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
