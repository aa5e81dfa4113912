package org.storeservice.jdbc.postgres;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;
import org.storeservice.jdbc.FaultProxy;
import org.storeservice.jdbc.FaultProxy.Fault;
import org.storeservice.jdbc.PostgresStorageConfig;
import org.storeservice.jdbc.TestPostgres;
import org.storeservice.jdbc.internal.Engine;
import org.storeservice.jdbc.internal.SpoolMemory;
import org.storeservice.jdbc.internal.SpooledContent;
import org.storeservice.jdbc.internal.WritePath;
import org.storeservice.jdbc.internal.WriteRequest;
import org.storeservice.jdbc.postgres.HistoryChecker.Answer;
import org.storeservice.jdbc.postgres.HistoryChecker.Kind;
import org.storeservice.jdbc.postgres.HistoryChecker.Op;

/**
 * One random fault schedule over the PostgreSQL write path, all of it drawn from one seed: the pool size, the time-outs,
 * the commit rows' retention (short, pruned every 250 ms), the writes (REPLACE, REJECT, delete, {@code writeAll} groups;
 * small and large; keys shared with a second server that writes them at the same time, REPLACE, REJECT and delete) and
 * the faults ({@link FaultProxy}). Beside faults at random moments, most of a schedule's faults are aimed at what the
 * writer is doing, and gated on what the proxy sees rather than timed: the COMMIT of a batch of writes of every age
 * (writes queued behind a partition); a commit held back until its batch's lookup was sent, so that only the fence
 * stops it; a lookup that fails; server errors on a commit (57P01 by {@code pg_terminate_backend}, and 40001, 40P01,
 * 25006 answered by the proxy in the server's stead). A short schedule's faults all end well within the failover
 * time-out; a long one's outage outlasts it, so that writes expire, some of them while their commit is in doubt, of
 * a batch committed and of one not. The writer under test ("A") reaches PostgreSQL through the proxy; the second
 * server ("B") directly. What happened is counted in {@link FaultCounts}.
 *
 * <p>The same seed makes the same schedule; what the threads then do in time is the machine's, so a replay takes the
 * same decisions but may interleave otherwise.
 */
final class FaultSchedule {
    private static final int A_THREADS = 4;
    private static final int KEYS_PER_THREAD = 12;
    private static final int B_THREADS = 2;
    private static final int LARGE_BYTES = 70 * 1024;
    /** How long a short schedule's faults go on; writes go on a little after, with none. */
    private static final Duration FAULTS_FOR = Duration.ofMillis(1500);
    private static final Duration QUIET_AFTER = Duration.ofMillis(500);
    private static final String[] COMMITS = {"COMMIT", "WITH commit_row"};
    private static final String[] LOOKUPS = {"ON CONFLICT (id) DO NOTHING", "SELECT committed, not_written"};
    private static final Fault[] LOST_ANSWERS = {Fault.DROP_ANSWER, Fault.STALL_ANSWER, Fault.RESET_MID_ANSWER,
        Fault.CUT_BEFORE, Fault.TERMINATE_BACKEND};
    private static final AtomicInteger tables = new AtomicInteger();

    final long seed;
    final boolean longOutage;
    final int poolSize;
    final Duration statementTimeout;
    final Duration failoverTimeout;
    private final int socketTimeoutSeconds;
    /** Writes of one thread under way at once, each of its own key. */
    private final int inFlightPerThread;
    /** The longest pause before a thread's next write: writes arrive over time, so a batch taken after a wait holds every age. */
    private final int pauseBetweenWrites;
    private final FaultCounts counts = new FaultCounts();

    private FaultSchedule(long seed, boolean longOutage) {
        this.seed = seed;
        this.longOutage = longOutage;
        SplittableRandom random = new SplittableRandom(seed);
        // A long outage has one lane (3 connections), so that its batches follow one another and the one its second
        // fault takes is the batch of every write queued in the outage.
        this.poolSize = longOutage ? 3 : 3 + random.nextInt(3);
        this.statementTimeout = Duration.ofMillis(random.nextBoolean() ? 400 : 700);
        this.socketTimeoutSeconds = 1; // pgjdbc counts seconds; above the statement time-out
        this.failoverTimeout = longOutage ? Duration.ofMillis(2000 + 500L * random.nextInt(3)) : Duration.ofMillis(6000);
        // A long outage wants writes queued all through it while the database is away, so that the batch in doubt at
        // its end holds writes that run out their time-out and writes that do not: many under way, arriving slowly.
        this.inFlightPerThread = longOutage ? 20 : 4;
        this.pauseBetweenWrites = longOutage ? (int) failoverTimeout.toMillis() / 10 : 20;
    }

    /** The schedule of {@code seed}; {@code longOutage}: one outage outlasts the failover time-out. */
    static FaultSchedule of(long seed, boolean longOutage) {
        return new FaultSchedule(seed, longOutage);
    }

    /** What this schedule made happen, once it ran. */
    FaultCounts counts() {
        return counts;
    }

    @Override
    public String toString() {
        return "schedule " + seed + (longOutage ? " (long outage" : " (short faults") + ", poolSize=" + poolSize
                + ", statementTimeout=" + statementTimeout.toMillis() + " ms, failoverTimeout="
                + failoverTimeout.toMillis() + " ms)";
    }

    /** Runs the schedule against {@code postgres}. */
    HistoryChecker.Result run(TestPostgres postgres) throws Exception {
        String table = "schedule_" + tables.incrementAndGet() + "_" + Long.toUnsignedString(seed, 36);
        List<Op> ops = Collections.synchronizedList(new ArrayList<>());
        try (Storage direct = Storages.open(postgres.uri(table, "poolSize=3"));
                FaultProxy proxy = new FaultProxy(postgres.host(), postgres.port())) {
            recordHistory(postgres, table);
            proxy.onLookup(counts::lookup);
            proxy.terminator(pid -> terminate(postgres, pid));
            PostgresStorageConfig config = PostgresStorageConfig.fromUri(postgres.uriVia("127.0.0.1", proxy.port(), table,
                    "prepareThreshold=0&poolSize=" + poolSize + "&poolTimeoutMillis=1000&statementTimeoutMillis="
                            + statementTimeout.toMillis() + "&socketTimeout=" + socketTimeoutSeconds + "&connectTimeout=1"
                            + "&loginTimeout=1&failoverTimeoutMillis=" + failoverTimeout.toMillis()));
            long longest = Math.max(failoverTimeout.toNanos(), statementTimeout.toNanos());
            PostgresWriter.Settings settings = new PostgresWriter.Settings(PooledConnections.writerLanes(config),
                    failoverTimeout, Duration.ofNanos(4 * longest), Duration.ofMillis(250));
            Engine engine = open(config, settings);
            ExecutorService threads = Executors.newCachedThreadPool();
            AtomicBoolean writing = new AtomicBoolean(true);
            List<CompletableFuture<?>> writers = new ArrayList<>();
            try {
                for (int t = 0; t < A_THREADS; t++) {
                    int thread = t;
                    writers.add(CompletableFuture.runAsync(() -> writeThroughProxy(engine.writes(), thread, writing, ops,
                            threads), threads));
                }
                for (int t = 0; t < B_THREADS; t++) {
                    int thread = t;
                    writers.add(CompletableFuture.runAsync(() -> writeDirectly(direct, thread, writing, ops), threads));
                }
                injectFaults(proxy);
                Thread.sleep(QUIET_AFTER.toMillis());
                writing.set(false);
                // Every write is answered within its failover time-out plus one try; the bound is a hang guard.
                CompletableFuture.allOf(writers.toArray(new CompletableFuture<?>[0]))
                        .get(failoverTimeout.toMillis() + 60_000, TimeUnit.MILLISECONDS);
            } finally {
                writing.set(false);
                proxy.disarmAll();
                proxy.refuse(false);
                proxy.release();
                engine.writes().close();
                engine.reads().close();
                threads.shutdownNow();
            }
        }
        HistoryChecker.Result result = HistoryChecker.check(List.copyOf(ops), history(postgres, table), longOutage);
        counts.finish(result);
        return result;
    }

    /**
     * The storage under test, opened through the proxy before any fault: tried again if its login (one second, as a
     * fault needs) times out on a busy machine, which is no finding.
     */
    private static Engine open(PostgresStorageConfig config, PostgresWriter.Settings settings) throws IOException {
        for (int attempt = 1; ; attempt++) {
            try {
                return PostgresEngine.open(config, SpoolMemory.defaultBytes(), settings);
            } catch (IOException e) {
                if (attempt == 5) {
                    throw e;
                }
            }
        }
    }

    /** Ends server process {@code pid}, waiting until it is gone: its client reads 57P01, admin shutdown. */
    private static void terminate(TestPostgres postgres, int pid) throws SQLException {
        try (Connection connection = postgres.connection(); Statement statement = connection.createStatement()) {
            statement.execute("SELECT pg_terminate_backend(" + pid + ", 2000)");
        }
    }

    private FaultProxy.Armed arm(FaultProxy proxy, Fault fault, String pattern, boolean hold) {
        return counts.armed(proxy.arm(fault, pattern, hold));
    }

    /**
     * A short schedule's faults for {@link #FAULTS_FOR}, or a long one's until its long outage is over: one episode
     * after another, each drawn from the seed; then every one undone.
     */
    private void injectFaults(FaultProxy proxy) throws InterruptedException {
        SplittableRandom random = new SplittableRandom(seed ^ 0x5DEECE66DL);
        long end = System.nanoTime() + FAULTS_FOR.toNanos();
        boolean outageDone = !longOutage;
        while (!outageDone || System.nanoTime() - end < 0) {
            Thread.sleep(50 + random.nextInt(150));
            if (!outageDone && (random.nextInt(6) == 0 || System.nanoTime() - end > -FAULTS_FOR.toNanos() / 3)) {
                outageDone = true;
                longOutage(proxy, random);
                continue;
            }
            episode(proxy, random);
        }
        proxy.disarmAll();
        proxy.refuse(false);
        proxy.release();
    }

    /** One episode of faults, most of them aimed at a state of the writer. */
    private void episode(FaultProxy proxy, SplittableRandom random) throws InterruptedException {
        String commit = COMMITS[random.nextInt(COMMITS.length)];
        switch (random.nextInt(12)) {
            case 0, 1 -> { // a fault at whatever statement comes, sometimes held as a partition
                String[] patterns = {"WITH commit_row", "COMMIT", "INSERT INTO", "DELETE FROM", "store_commits",
                    "RETURNING"};
                boolean hold = random.nextInt(3) == 0;
                FaultProxy.Armed armed = arm(proxy, LOST_ANSWERS[random.nextInt(4)],
                        patterns[random.nextInt(patterns.length)], hold);
                if (hold && armed.awaitFired(300)) {
                    Thread.sleep(100 + random.nextInt(300));
                    proxy.release();
                }
            }
            case 2, 3 -> { // the COMMIT of a batch of writes of every age: they queued behind a partition
                proxy.hold();
                Thread.sleep(100 + random.nextInt(200));
                FaultProxy.Armed armed = arm(proxy, LOST_ANSWERS[random.nextInt(LOST_ANSWERS.length)], "COMMIT", false);
                proxy.release();
                armed.awaitFired(1000);
            }
            case 4, 5 -> { // a commit that would land after its lookup read the commit row: only the fence stops it
                if (random.nextBoolean()) {
                    proxy.hold();
                    Thread.sleep(50 + random.nextInt(150));
                }
                FaultProxy.Armed armed = arm(proxy, Fault.HOLD_PAST_LOOKUP, commit, false);
                proxy.release();
                armed.awaitFired(1000);
            }
            case 6 -> { // a commit in doubt whose lookup fails
                arm(proxy, Fault.DROP_ANSWER, commit, false);
                arm(proxy, LOST_ANSWERS[random.nextInt(4)], LOOKUPS[random.nextInt(LOOKUPS.length)], false)
                        .awaitFired(2000);
            }
            case 7, 8 -> { // the server refuses, or ends the connection, at the commit
                Fault[] errors = {Fault.ERROR_40001, Fault.ERROR_40P01, Fault.ERROR_25006, Fault.TERMINATE_BACKEND};
                Fault fault = errors[random.nextInt(errors.length)];
                String pattern = fault == Fault.ERROR_25006 && random.nextBoolean() ? "INSERT INTO"
                        : fault == Fault.ERROR_40001 || fault == Fault.ERROR_40P01 ? "COMMIT" : commit;
                arm(proxy, fault, pattern, false).awaitFired(500);
            }
            case 9 -> proxy.cutAll();
            case 10 -> {
                proxy.refuse(true);
                proxy.cutAll();
                Thread.sleep(100 + random.nextInt(300));
                proxy.refuse(false);
            }
            default -> { // a partition: writes queue, every lane's statement waits
                proxy.hold();
                Thread.sleep(100 + random.nextInt(300));
                proxy.release();
            }
        }
    }

    /**
     * The long outage, in two parts. A commit's answer is dropped (it committed) and the database held away for part
     * of the failover time-out, while writes go on queueing, of every age; once it is back, the one lane finds out that
     * first batch committed, then takes every write queued meanwhile as one batch, whose COMMIT's answer is lost too
     * (dropped after it committed, twice in three; cut before, once), and the database is held away again until the
     * oldest of them have run out their time-out while in doubt, and the younger have not: the situation in-doubt
     * resolution exists for, and the one in which the review of issue #50 found the shifted indexes.
     */
    private void longOutage(FaultProxy proxy, SplittableRandom random) throws InterruptedException {
        long failover = failoverTimeout.toMillis();
        long away = System.nanoTime();
        counts.armed(proxy.armAfterArrayRun(Fault.DROP_ANSWER, "COMMIT", true)).awaitFired(2_000);
        Thread.sleep((long) (failover * (0.6 + 0.3 * random.nextDouble())));
        // Only a lane's batch: a large value committed alone on its caller's thread must not take it.
        FaultProxy.Armed second = counts.armed(proxy.armAfterArrayRun(random.nextInt(3) == 0 ? Fault.CUT_BEFORE
                : Fault.DROP_ANSWER, "COMMIT", true));
        proxy.release();
        if (second.awaitFired(failover)) {
            // Back once the writes queued first in the outage have run out their time-out, and not those queued last.
            long back = away + TimeUnit.MILLISECONDS.toNanos(failover + 200 + random.nextInt(400)) - System.nanoTime();
            Thread.sleep(Math.max(0, TimeUnit.NANOSECONDS.toMillis(back)));
        }
        proxy.disarmAll();
        proxy.release();
    }

    /**
     * Writer "A" thread {@code thread}: up to {@link #inFlightPerThread} writes at once, each of its own key (never
     * two of one key in the queue at once), until {@code writing} ends; then it waits for every answer. One write in
     * twenty is a {@code writeAll} group of two or three keys.
     */
    private void writeThroughProxy(WritePath writer, int thread, AtomicBoolean writing, List<Op> ops,
            ExecutorService threads) {
        SplittableRandom random = new SplittableRandom(seed * 31 + thread);
        Set<String> busy = Collections.synchronizedSet(new HashSet<>());
        List<CompletableFuture<Void>> inFlight = new ArrayList<>();
        int sequence = 0;
        while (writing.get()) {
            inFlight.removeIf(CompletableFuture::isDone);
            String key = "k" + (thread * KEYS_PER_THREAD + random.nextInt(KEYS_PER_THREAD));
            if (inFlight.size() >= inFlightPerThread || !busy.add(key)) {
                pause(2);
                continue;
            }
            pause(random.nextInt(pauseBetweenWrites));
            int roll = random.nextInt(100);
            if (roll < 5) {
                inFlight.add(writeGroup(writer, thread, key, random, busy, ops, threads, sequence));
                sequence += 3;
                continue;
            }
            String value = "A" + thread + "-" + sequence++;
            Kind kind = roll < 50 ? Kind.REPLACE : roll < 78 ? Kind.REJECT : Kind.DELETE;
            counts.wrote("A " + kind);
            OverwritePolicy policy = kind == Kind.REJECT ? OverwritePolicy.REJECT : OverwritePolicy.REPLACE;
            int bytes = kind == Kind.DELETE ? -1 : roll % 10 == 0 ? LARGE_BYTES : roll % 10 == 1 ? 64 : -1;
            WriteRequest request = kind == Kind.DELETE ? WriteRequest.deletion(key) : bytes < 0
                    ? new WriteRequest(key, EntryKind.TEXT, value, null, policy, now())
                    : new WriteRequest(key, EntryKind.BYTES, null, SpooledContent.inMemory(content(value, bytes)), policy,
                            now());
            String named = kind == Kind.DELETE ? null : bytes < 0 ? value : md5(content(value, bytes));
            long started = System.nanoTime();
            CompletableFuture<Boolean> answer = Run.large(request)
                    ? CompletableFuture.supplyAsync(() -> {
                        try {
                            return writer.write(request);
                        } catch (java.io.IOException e) {
                            throw new CompletionException(e);
                        }
                    }, threads)
                    : writer.writeAsync(request, threads);
            inFlight.add(answer.handle((result, failure) -> {
                ops.add(op("A", key, kind, named, started, result, failure));
                busy.remove(key);
                return null;
            }));
        }
        inFlight.forEach(CompletableFuture::join);
    }

    /**
     * A {@code writeAll} group: REPLACEs of {@code first} and one or two other keys of the thread not under way,
     * sometimes one of them a large value, committed together; each write is checked as a REPLACE answered as the group.
     */
    private CompletableFuture<Void> writeGroup(WritePath writer, int thread, String first, SplittableRandom random,
            Set<String> busy, List<Op> ops, ExecutorService threads, int sequence) {
        List<String> keys = new ArrayList<>(List.of(first));
        int size = 2 + random.nextInt(2);
        for (int i = 0; i < 6 && keys.size() < size; i++) {
            String key = "k" + (thread * KEYS_PER_THREAD + random.nextInt(KEYS_PER_THREAD));
            if (busy.add(key)) {
                keys.add(key);
            }
        }
        counts.wrote("A writeAll group");
        List<WriteRequest> requests = new ArrayList<>();
        List<String> values = new ArrayList<>();
        boolean large = random.nextInt(4) == 0;
        for (int i = 0; i < keys.size(); i++) {
            String value = "A" + thread + "-" + (sequence + i);
            if (large && i == 0) {
                requests.add(new WriteRequest(keys.get(i), EntryKind.BYTES, null,
                        SpooledContent.inMemory(content(value, LARGE_BYTES)), OverwritePolicy.REPLACE, now()));
                values.add(md5(content(value, LARGE_BYTES)));
            } else {
                requests.add(new WriteRequest(keys.get(i), EntryKind.TEXT, value, null, OverwritePolicy.REPLACE, now()));
                values.add(value);
            }
        }
        long started = System.nanoTime();
        return CompletableFuture.supplyAsync(() -> {
            try {
                writer.writeAll(requests);
                return true;
            } catch (java.io.IOException e) {
                throw new CompletionException(e);
            }
        }, threads).handle((result, failure) -> {
            for (int i = 0; i < keys.size(); i++) {
                ops.add(op("A", keys.get(i), Kind.REPLACE, values.get(i), started, result, failure));
                busy.remove(keys.get(i));
            }
            return null;
        });
    }

    /**
     * Writer "B" thread {@code thread}: REPLACEs, REJECTs and deletes of the keys it shares with the writer under test,
     * one at a time.
     */
    private void writeDirectly(Storage direct, int thread, AtomicBoolean writing, List<Op> ops) {
        SplittableRandom random = new SplittableRandom(seed * 37 + thread);
        int sequence = 0;
        while (writing.get()) {
            String key = "k" + (B_THREADS * random.nextInt(A_THREADS * KEYS_PER_THREAD / B_THREADS) + thread);
            String value = "B" + thread + "-" + sequence++;
            int roll = random.nextInt(100);
            Kind kind = roll < 60 ? Kind.REPLACE : roll < 85 ? Kind.REJECT : Kind.DELETE;
            counts.wrote("B " + kind);
            long started = System.nanoTime();
            Boolean result = null;
            Throwable failure = null;
            try {
                result = kind == Kind.DELETE ? direct.delete(key) : direct.putText(key, value,
                        kind == Kind.REJECT ? OverwritePolicy.REJECT : OverwritePolicy.REPLACE);
            } catch (java.io.IOException | RuntimeException e) {
                failure = e;
            }
            ops.add(op("B", key, kind, kind == Kind.DELETE ? null : value, started, result, failure));
            pause(2);
        }
    }

    static Op op(String server, String key, Kind kind, String value, long started, Boolean result,
            Throwable failure) {
        long answered = System.nanoTime();
        if (failure != null) {
            Throwable cause = failure instanceof CompletionException && failure.getCause() != null ? failure.getCause()
                    : failure;
            String message = String.valueOf(cause.getMessage());
            return new Op(server, key, kind, value, started, answered, Answer.ERROR,
                    message.contains("may or may not be stored"));
        }
        return new Op(server, key, kind, value, started, answered, result ? Answer.TRUE : Answer.FALSE, false);
    }

    private static void pause(int millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Instant now() {
        return Instant.now().truncatedTo(ChronoUnit.MICROS);
    }

    /** {@code length} bytes that begin with {@code value}, so that each write's content is its own. */
    private static byte[] content(String value, int length) {
        byte[] bytes = new byte[length];
        byte[] name = value.getBytes(StandardCharsets.UTF_8);
        for (int i = 0; i < length; i++) {
            bytes[i] = i < name.length ? name[i] : (byte) (i * 31);
        }
        return bytes;
    }

    private static String md5(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A trigger that records every row version of {@code table}, in the order the database made them. */
    static void recordHistory(TestPostgres postgres, String table) throws SQLException {
        String qualified = postgres.schema() + "." + table;
        try (Connection connection = postgres.connection(); Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE " + qualified + "_history (seq bigserial PRIMARY KEY, op text, key text,"
                    + " value text)");
            statement.execute("CREATE FUNCTION " + qualified + "_record() RETURNS trigger AS $$ BEGIN"
                    + " IF TG_OP = 'DELETE' THEN INSERT INTO " + qualified + "_history (op, key) VALUES ('delete', OLD.key);"
                    + " ELSE INSERT INTO " + qualified + "_history (op, key, value) VALUES (lower(TG_OP), NEW.key,"
                    + " coalesce(NEW.text_value, md5(NEW.bytes_value))); END IF; RETURN NULL; END $$ LANGUAGE plpgsql");
            statement.execute("CREATE TRIGGER record AFTER INSERT OR UPDATE OR DELETE ON " + qualified
                    + " FOR EACH ROW EXECUTE FUNCTION " + qualified + "_record()");
        }
    }

    static List<HistoryChecker.Event> history(TestPostgres postgres, String table) throws SQLException {
        List<HistoryChecker.Event> events = new ArrayList<>();
        try (Connection connection = postgres.connection(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT seq, op, key, value FROM " + postgres.schema() + "."
                        + table + "_history ORDER BY seq")) {
            while (rows.next()) {
                events.add(new HistoryChecker.Event(rows.getLong(1), rows.getString(2), rows.getString(3),
                        rows.getString(4)));
            }
        }
        return events;
    }
}
