package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
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
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
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
import org.storeservice.jdbc.PostgresStorageConfig;

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
 * <p>And as an attacker on that network would try it, from a client host's namespace (inside the admitted network):
 * the superuser's login with its right password, etcd reads without credentials, Patroni changes without credentials,
 * plain HTTP (and plain PostgreSQL) to each TLS port: each must fail, while the same requests with credentials, or
 * over TLS, succeed. Every process's command line is sampled during the whole start (etcd's and the database's
 * initialisation included): none may hold a secret.
 *
 * <p>Needs root, iproute2 and what HighAvailabilityIT needs; runs when {@code STORE_TEST_HA=true} (as {@code .ci/run}
 * sets it), fails rather than skips under {@code CI=true}. Removes its namespaces and bridge whatever happens.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class SeparateHostsDeploymentIT {
    private static final List<String> DATABASES = List.of("pg1", "pg2", "pg3");
    private static final List<String> SERVERS = List.of("store1", "store2");
    /** The deployment's hosts and a client host, on the network but not in the inventory, for the attacks. */
    private static final Map<String, Integer> HOST_NUMBER = Map.of("pg1", 11, "pg2", 12, "pg3", 13, "store1", 21,
            "store2", 22, "lb", 30, "client", 40);
    private static final int WRITERS_PER_TARGET = 2;

    private static String prefix;
    private static String network;
    private static Path directory;
    private static Path repository;
    private static boolean namespacesMade;
    /** Patroni's REST API over HTTPS, verified against the deployment's CA. */
    private static HttpClient patroni;
    /** What the command-line sampler saw during start.sh, and in how many sweeps. */
    private static Set<String> commandLines = Set.of();
    private static long sweeps;

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
        // TLS 1.2: over TLS 1.3, JDK 17's HttpClient never sees the end of an answer that ends with its connection,
        // as Patroni's HTTP/1.0 answers do, and waits for ever (curl and Patroni's own clients use TLS 1.3).
        patroni = HttpClient.newBuilder().sslContext(trusting(directory.resolve("tls").resolve("ca.crt")))
                .sslParameters(new javax.net.ssl.SSLParameters(null, new String[] {"TLSv1.2"}))
                .connectTimeout(Duration.ofSeconds(2)).build();
        CommandLineSampler sampler = CommandLineSampler.start();
        try {
            run(Duration.ofMinutes(5), List.of("bash", script("start.sh"), inventory.toString()));
        } finally {
            commandLines = sampler.stop();
            sweeps = sampler.sweeps();
        }
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
                // A write belongs to the event during whose window it was answered: one sent just before the next
                // event and answered after it waited through that one's outage, not this one's.
                List<Write> its = all.stream().filter(w -> w.target().equals(server) && w.answered() >= from
                        && w.answered() < to).toList();
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
                    // A server's outage is the longest any of its writes waited, those HAProxy sent it among them.
                    // Which server HAProxy chose for a write the test does not know, so its own writers bound the
                    // logged outage from below, and they with the writers through HAProxy from above.
                    long seenMillis = TimeUnit.NANOSECONDS.toMillis(seen);
                    long balancedMillis = TimeUnit.NANOSECONDS.toMillis(all.stream().filter(w -> w.target().equals("lb")
                            && w.answered() >= from && w.answered() < to).mapToLong(w -> w.answered() - w.started())
                            .max().orElse(0));
                    // A cut link is noticed only when the driver's socket time-out ends the try under way: the
                    // outage is logged from then, and writes queued behind that try had waited up to that long already.
                    long noticeMillis = events.get(e).startsWith("link of")
                            ? PostgresStorageConfig.DEFAULT_SOCKET_TIMEOUT.toMillis() : 0;
                    assertTrue(logged.isPresent(), server + " logged no outage for " + events.get(e));
                    assertTrue(logged.get() >= seenMillis - noticeMillis - 1_000 && logged.get() <= Math.max(seenMillis,
                            balancedMillis) + 1_000, server + " logged an outage of " + logged.get() + " ms; its clients"
                            + " waited " + seenMillis + " ms, those through HAProxy " + balancedMillis + " ms");
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
                HttpResponse<String> response = patroni.send(HttpRequest.newBuilder(
                        URI.create("https://" + address(db) + ":8008/cluster")).timeout(Duration.ofSeconds(2)).build(),
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
                    if (patroni.send(HttpRequest.newBuilder(URI.create("https://" + address(db)
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

    @Test
    void noSecretWasOnAnyCommandLineDuringStartAndInitialisation() throws Exception {
        Map<String, String> secrets = new java.util.TreeMap<>();
        try (var files = Files.list(directory.resolve("secrets"))) {
            for (Path file : files.toList()) {
                String value = Files.readString(file).strip();
                String role = file.getFileName().toString().replace(".password", "");
                secrets.put(role, value);
                secrets.put(role + " (base64)", Base64.getEncoder().encodeToString(value.getBytes(UTF_8)));
            }
        }
        secrets.put("patroni-rest (Basic authorization)",
                Base64.getEncoder().encodeToString(("patroni:" + secrets.get("patroni-rest")).getBytes(UTF_8)));
        assertTrue(secrets.size() >= 15, "the deployment's secrets: " + secrets.keySet());
        // The sampler must have been quick enough to see the short curl calls that set etcd's users up, where the
        // passwords once were.
        long etcdSetUp = commandLines.stream().filter(c -> c.startsWith("curl ") && c.contains("/v3/auth/")).count();
        System.out.printf("Command lines: %d distinct in %d sweeps during start.sh, %d of them etcd's set-up calls%n",
                commandLines.size(), sweeps, etcdSetUp);
        assertTrue(etcdSetUp > 0, "the sampler saw none of init-etcd's calls: it cannot vouch for them");
        for (String line : commandLines) {
            for (Map.Entry<String, String> secret : secrets.entrySet()) {
                assertFalse(line.contains(secret.getValue()), "the " + secret.getKey() + " secret was on a command line: "
                        + line.replace(secret.getValue(), "<" + secret.getKey() + ">"));
            }
        }
    }

    @Test
    void theSuperuserCannotLogInFromTheNetworkEvenWithItsPassword() throws Exception {
        String superuser = secret("superuser");
        for (String db : DATABASES) {
            for (String mode : List.of("", " replication=true")) {
                Ran login = fromClient(Map.of("PGPASSWORD", superuser), null, "psql", "-X", "-At", "-c",
                        "SELECT rolsuper FROM pg_roles WHERE rolname = current_user", postgres(db, "postgres", "postgres")
                        + mode);
                assertTrue(login.exitValue() != 0 && login.printed().contains("pg_hba.conf rejects"),
                        "the superuser" + mode + " on " + db + ": " + login);
            }
            // The same path with the store role's password logs in: the refusal is the rule's, not the network's.
            Ran store = fromClient(Map.of("PGPASSWORD", secret("store-app")), null, "psql", "-X", "-At", "-c",
                    "SELECT rolsuper FROM pg_roles WHERE rolname = current_user", postgres(db, "store", "store"));
            assertEquals(new Ran(0, "f\n"), store, "the store role on " + db);
        }
    }

    @Test
    void etcdAnswersNoReadWithoutCredentials() throws Exception {
        String range = "{\"key\":\"" + base64("/store/") + "\",\"range_end\":\"" + base64("/store0") + "\"}";
        for (String db : DATABASES) {
            Ran anonymous = fromClient(Map.of(), range.getBytes(UTF_8), curl("-X", "POST", "--data-binary", "@-",
                    "https://" + address(db) + ":2379/v3/kv/range"));
            assertTrue(anonymous.printed().contains("user name is empty") && !anonymous.printed().contains("\"kvs\""),
                    "an anonymous read of /store/ on " + db + ": " + anonymous);
        }
        // With patroni's password (on standard input) and its token (from a file) the same read finds the cluster.
        Ran authenticated = fromClient(Map.of(), ("{\"name\":\"patroni\",\"password\":\"" + secret("etcd-patroni") + "\"}")
                .getBytes(UTF_8), curl("-X", "POST", "--data-binary", "@-", "https://" + address("pg1")
                + ":2379/v3/auth/authenticate"));
        Matcher token = Pattern.compile("\"token\":\"([^\"]+)\"").matcher(authenticated.printed());
        assertTrue(token.find(), "patroni could not authenticate: " + authenticated);
        Path header = privateFile("authorization", "Authorization: " + token.group(1) + "\n");
        Ran read = fromClient(Map.of(), range.getBytes(UTF_8), curl("-X", "POST", "-H", "@" + header,
                "--data-binary", "@-", "https://" + address("pg1") + ":2379/v3/kv/range"));
        assertTrue(read.printed().contains("\"kvs\""), "patroni's read of /store/: " + read);
    }

    @Test
    void patroniRefusesChangesWithoutCredentials() throws Exception {
        String primary = primary();
        for (String db : DATABASES) {
            Ran reload = fromClient(Map.of(), null, curl("-o", "/dev/null", "-w", "%{http_code}", "-X", "POST",
                    "https://" + address(db) + ":8008/reload"));
            assertEquals(new Ran(0, "401"), reload, "an anonymous reload on " + db);
        }
        Ran switchover = fromClient(Map.of(), ("{\"leader\":\"" + primary + "\"}").getBytes(UTF_8), curl("-o", "/dev/null",
                "-w", "%{http_code}", "-X", "POST", "--data-binary", "@-", "https://" + address(primary) + ":8008/switchover"));
        assertEquals(new Ran(0, "401"), switchover, "an anonymous switchover");
        // With the credentials (from a netrc file) a change is accepted.
        Path netrc = privateFile("netrc", "default login patroni password " + secret("patroni-rest") + "\n");
        Ran reload = fromClient(Map.of(), null, curl("--netrc-file", netrc.toString(), "-o", "/dev/null", "-w",
                "%{http_code}", "-X", "POST", "https://" + address(primary) + ":8008/reload"));
        assertEquals(0, reload.exitValue(), reload.toString());
        assertTrue(reload.printed().startsWith("20"), "a reload with the credentials: " + reload);
    }

    @Test
    void plainTextToEachTlsPortGetsNothing() throws Exception {
        Map<Integer, String> paths = Map.of(2379, "/version", 2380, "/members", 8008, "/cluster");
        for (String db : DATABASES) {
            for (Map.Entry<Integer, String> port : paths.entrySet()) {
                String plain = "http://" + address(db) + ":" + port.getKey() + port.getValue();
                Ran answer = fromClient(Map.of(), null, curl("-w", "\n%{http_code}", plain));
                assertTrue(answer.exitValue() != 7, plain + " is not listening: " + answer); // refused: proves nothing
                assertFalse(answer.printed().matches("(?s).*\\n2\\d\\d$"), plain + " answered: " + answer);
                assertFalse(answer.printed().contains("etcdserver") || answer.printed().contains("peerURLs")
                        || answer.printed().contains("\"members\""), plain + " gave data away: " + answer);
            }
            // Over TLS the same ports answer (etcd's peers only to a host with a certificate from the CA).
            assertEquals(0, fromClient(Map.of(), null, curl("-o", "/dev/null", "https://" + address(db) + ":2379/version"))
                    .exitValue());
            assertEquals(0, fromClient(Map.of(), null, curl("-o", "/dev/null", "https://" + address(db) + ":8008/cluster"))
                    .exitValue());
            Ran anonymousPeer = fromClient(Map.of(), null, curl("--http1.1", "-o", "/dev/null", "-w", "%{http_code}",
                    "https://" + address(db) + ":2380/version"));
            assertTrue(anonymousPeer.exitValue() != 0 && !anonymousPeer.printed().startsWith("2"),
                    "etcd's peer port answered a client without a certificate: " + anonymousPeer);
            // A member's certificate is taken from that member's address only (etcd checks it against the sender).
            Path tls = directory.resolve("tls");
            String[] asPg1 = curl("--http1.1", "-o", "/dev/null", "-w", "%{http_code}", "--cert",
                    tls.resolve("pg1.crt").toString(), "--key", tls.resolve("pg1.key").toString(),
                    "https://" + address(db) + ":2380/version");
            assertEquals(new Ran(0, "200"), attempt("pg1", Map.of(), null, asPg1), "etcd's peer port to pg1, from pg1");
            Ran stolen = fromClient(Map.of(), null, asPg1);
            assertTrue(stolen.exitValue() != 0 && !stolen.printed().startsWith("2"),
                    "etcd's peer port took pg1's certificate from the client host: " + stolen);
            // PostgreSQL without TLS, with the right password: refused.
            Ran plainLogin = fromClient(Map.of("PGPASSWORD", secret("store-app")), null, "psql", "-X", "-At", "-c",
                    "SELECT 1", "host=" + address(db) + " port=5432 dbname=store user=store sslmode=disable connect_timeout=5");
            assertTrue(plainLogin.exitValue() != 0 && plainLogin.printed().contains("no encryption"),
                    "a plain-text login on " + db + ": " + plainLogin);
        }
    }

    @Test
    void getReadsTheClusterOnAStoreHostAsTheDocsShow() throws Exception {
        String key = "docs-get-" + ThreadLocalRandom.current().nextInt(1_000_000);
        HttpResponse<String> written = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                URI.create(endpoint("lb") + "/WriteString?key=" + key + "&value=read+back")).timeout(Duration.ofSeconds(60))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertTrue(written.body().contains(">Success<"), written.body());
        // docs/operating.md: set -a; . /var/lib/store-ha/store1/store.env; java -jar store-server.jar get KEY
        Ran get = attempt("store1", Map.of(), null, "sh", "-c", "set -a; . \"$0\"; exec \"$1\" -jar \"$2\" get \"$3\"",
                hosts().resolve("store1").resolve("store.env").toString(),
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                ServerJar.JAR.toAbsolutePath().toString(), key);
        assertEquals(0, get.exitValue(), get.toString());
        assertTrue(get.printed().contains("read back"), get.toString());
    }

    private record Ran(int exitValue, String printed) {
    }

    private static String secret(String role) throws IOException {
        return Files.readString(directory.resolve("secrets").resolve(role + ".password")).strip();
    }

    private static String base64(String text) {
        return Base64.getEncoder().encodeToString(text.getBytes(UTF_8));
    }

    /** A libpq connection string to {@code db} over verify-full TLS. */
    private static String postgres(String db, String user, String database) {
        return "host=" + address(db) + " port=5432 dbname=" + database + " user=" + user + " sslmode=verify-full"
                + " sslrootcert=" + directory.resolve("tls").resolve("ca.crt") + " connect_timeout=5";
    }

    /** curl, bounded, quiet but for errors, verifying TLS against the deployment's CA. */
    private static String[] curl(String... arguments) {
        List<String> command = new ArrayList<>(List.of("curl", "-sS", "--max-time", "5", "--cacert",
                directory.resolve("tls").resolve("ca.crt").toString()));
        command.addAll(List.of(arguments));
        return command.toArray(String[]::new);
    }

    /** A file only its owner reads (for a header or a netrc: a secret never goes on a command line, here too). */
    private static Path privateFile(String name, String content) throws IOException {
        Path file = directory.resolve("attacker-" + name);
        Files.deleteIfExists(file);
        Files.createFile(file, java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
        return Files.writeString(file, content);
    }

    private static Ran fromClient(Map<String, String> environment, byte[] input, String... command) throws Exception {
        return attempt("client", environment, input, command);
    }

    /** Runs {@code command} in {@code host}'s namespace, bounded, {@code input} on its standard input; never fails. */
    private static Ran attempt(String host, Map<String, String> environment, byte[] input, String... command)
            throws Exception {
        List<String> inNamespace = new ArrayList<>(List.of("ip", "netns", "exec", namespace(host)));
        inNamespace.addAll(List.of(command));
        ProcessBuilder builder = new ProcessBuilder(inNamespace).redirectErrorStream(true);
        builder.environment().putAll(environment);
        if (input == null) {
            builder.redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        }
        Process process = builder.start();
        if (input != null) {
            try (var stdin = process.getOutputStream()) {
                stdin.write(input);
            }
        }
        java.util.concurrent.CompletableFuture<byte[]> output = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
            try {
                return process.getInputStream().readAllBytes();
            } catch (IOException e) {
                return new byte[0];
            }
        });
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            fail(command[0] + " in " + host + " did not end within 30 s");
        }
        return new Ran(process.exitValue(), new String(output.get(10, TimeUnit.SECONDS), UTF_8));
    }

    /** An SSLContext that trusts the deployment's CA (and nothing else). */
    private static javax.net.ssl.SSLContext trusting(Path caCertificate) throws Exception {
        java.security.KeyStore trusted = java.security.KeyStore.getInstance("PKCS12");
        trusted.load(null, null);
        try (var in = Files.newInputStream(caCertificate)) {
            trusted.setCertificateEntry("ca", java.security.cert.CertificateFactory.getInstance("X.509")
                    .generateCertificate(in));
        }
        javax.net.ssl.TrustManagerFactory factory = javax.net.ssl.TrustManagerFactory.getInstance(
                javax.net.ssl.TrustManagerFactory.getDefaultAlgorithm());
        factory.init(trusted);
        javax.net.ssl.SSLContext context = javax.net.ssl.SSLContext.getInstance("TLS");
        context.init(null, factory.getTrustManagers(), null);
        return context;
    }
}
