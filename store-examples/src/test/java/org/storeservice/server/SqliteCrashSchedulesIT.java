package org.storeservice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteConfig;
import org.storeservice.server.ClientWrite.Observed;

/**
 * Random crash schedules for the SQLite writer (synchronous=FULL), each from a seed of its own: client threads write
 * a few shared keys many times, small WriteString and WriteBytes beside large WriteBytes ({@link CrashSchedule}), while
 * a reader reads each key just after a write of it was acknowledged, through a read-only connection to the server's
 * file; the server's JVM is killed with
 * SIGKILL at the schedule's point; the server is started again on the same file; then every read, and the tool's
 * {@code export} key by key, must show what the clients' answers allow: acknowledgement order per key
 * ({@link AcknowledgementOrderChecker}, whose own planted-bug tests are {@code AcknowledgementOrderCheckerTest}). The
 * kill catches an acknowledgement given before the write reached the file only if it falls in that gap; the reads
 * catch one given before the commit whenever the read that follows it falls in it, which hundreds of reads a schedule
 * make likely.
 *
 * <p>The schedules of a run follow each other on one file: the restarted server that recovered one crash takes the
 * next schedule's writes, so what a schedule's keys held before it (a previous survivor) is part of its check, and
 * each schedule costs one JVM start. After each real check the checker is also given the real history with a wrong
 * outcome planted (a superseded acknowledged value, a lost key, a torn value, a stale read) and must refuse each, so
 * a schedule whose answers gave the checker nothing to hold cannot pass for a check.
 *
 * <p>{@code -Dstore.crashSchedule.seed=S} sets the run's seed (else a new one each run, printed), and
 * {@code -Dstore.crashSchedule.count=N} the number of schedules. A failure prints the command that replays its
 * schedule alone, on a fresh file: the seed fixes the schedule, not the machine's thread interleaving. Every wait
 * is bounded, and every request goes to 127.0.0.1.
 */
@Timeout(900)
class SqliteCrashSchedulesIT {
    static final String SEED_PROPERTY = "store.crashSchedule.seed";
    static final String COUNT_PROPERTY = "store.crashSchedule.count";
    /** Schedules in a run: about a minute on an otherwise idle 2-core machine. */
    private static final int DEFAULT_COUNT = 24;
    private static final int MAX_WRITES_PER_WRITER = 5_000;
    /** A read of one entry, as the schema of docs/storage.md stores it (kind 'T': text_value; 'B': bytes_value). */
    private static final String GET = "SELECT kind, text_value, bytes_value FROM store_entries WHERE key = ?";
    private static final Duration STEP = Duration.ofSeconds(60);

    @TempDir
    Path directory;

    @Test
    void acknowledgementOrderPerKeySurvivesKill9AtRandomPoints() throws Exception {
        long runSeed = Long.getLong(SEED_PROPERTY, ThreadLocalRandom.current().nextLong());
        int count = Integer.getInteger(COUNT_PROPERTY, DEFAULT_COUNT);
        System.out.printf("sqlite crash schedules: %d schedules, seed %d%n", count, runSeed);
        Path spool = Files.createDirectories(directory.resolve("spool"));
        Path database = directory.resolve("store.db");
        String storage = "sqlite:" + database + "?synchronous=FULL&spoolDirectory=" + spool;
        HttpClient http = WireWrites.client();
        Totals totals = new Totals();
        long started = System.nanoTime();
        Map<String, ExportedEntry> before = Map.of();
        ServerJar.Running server = serve(storage, 0);
        try {
            for (int index = 0; index < count; index++) {
                CrashSchedule schedule = CrashSchedule.draw(CrashSchedule.seedOf(runSeed, index));
                String name = "schedule " + (index + 1) + " of " + count + " (seed " + schedule.seed() + ")";
                try {
                    Load load = new Load(schedule, http, server.endpoint(), database);
                    load.runAndKill(server.process());
                    server = serve(storage, index + 1); // the restart, on the same file
                    Map<String, ExportedEntry> after = export(storage);
                    check(name, schedule, load, before, after, totals);
                    before = after;
                } catch (Exception | AssertionError e) {
                    throw new AssertionError(name + " failed (" + schedule + "): " + e.getMessage()
                            + "\nreplay it: " + replayCommand(schedule.seed()), e);
                }
            }
            server.process().destroy(); // SIGTERM
            ServerJar.exitStatus(server.process(), STEP);
        } finally {
            server.process().destroyForcibly();
        }
        System.out.printf("sqlite crash schedules: %d run, %d writes and %d reads checked, 0 violations, seed %d%n",
                count, totals.writes, totals.reads, runSeed);
        System.out.printf("  (%d acknowledged, %d of them large; %d in flight at the kills; %d acknowledged writes"
                        + " superseded, which must not survive; planted %d stale, %d lost and %d torn outcomes and %d"
                        + " stale reads, each refused; %.1f s)%n", totals.acknowledged, totals.largeAcknowledged,
                totals.unanswered, totals.superseded, totals.plantedStale, totals.plantedLost, totals.plantedTorn,
                totals.plantedStaleReads, (System.nanoTime() - started) / 1e9);
    }

    /** Fails unless the outcome is one that the clients' answers allow, and unless the checker refuses planted ones. */
    private static void check(String name, CrashSchedule schedule, Load load, Map<String, ExportedEntry> before,
            Map<String, ExportedEntry> after, Totals totals) {
        List<ClientWrite> history = List.copyOf(load.history);
        List<ClientRead> reads = List.copyOf(load.reads);
        AcknowledgementOrderChecker checker = new AcknowledgementOrderChecker(history);
        List<String> violations = new ArrayList<>(load.unexpected);
        violations.addAll(checker.checkReads(reads, before));
        violations.addAll(checker.check(before, after));
        long acknowledged = history.stream().filter(ClientWrite::acknowledged).count();
        long largeAcknowledged = history.stream().filter(w -> w.acknowledged() && w.large()).count();
        long unanswered = history.stream().filter(w -> w.outcome() == ClientWrite.Outcome.NO_ANSWER).count();
        int superseded = 0;
        for (String key : checker.keys()) {
            superseded += checker.superseded(key).size();
        }
        System.out.printf("%s: %s; %d writes, %d acknowledged (%d large), %d in flight at the kill, %d superseded;"
                        + " %d reads; %d violations%n", name, schedule, history.size(), acknowledged, largeAcknowledged,
                unanswered, superseded, reads.size(), violations.size());
        if (!violations.isEmpty()) {
            fail(violations.size() + " violations:\n  " + String.join("\n  ", violations.subList(0, Math.min(20, violations.size()))));
        }
        plantWrongOutcomes(checker, history, before, after, totals);
        plantStaleReads(checker, reads, before, totals);
        totals.writes += history.size();
        totals.reads += reads.size();
        totals.acknowledged += acknowledged;
        totals.largeAcknowledged += largeAcknowledged;
        totals.unanswered += unanswered;
        totals.superseded += superseded;
    }

    /**
     * The checker, given this schedule's real history with a wrong outcome, must refuse it: per key, the newest
     * superseded acknowledged value as the survivor, nothing where something was acknowledged, the survivor torn.
     */
    private static void plantWrongOutcomes(AcknowledgementOrderChecker checker, Collection<ClientWrite> history,
            Map<String, ExportedEntry> before, Map<String, ExportedEntry> after, Totals totals) {
        for (String key : checker.keys()) {
            Optional<Observed> held = Optional.ofNullable(before.get(key)).map(ClientWrite::observe);
            newestAnswered(checker.superseded(key)).ifPresent(stale -> {
                refused(checker.checkSurvivor(key, held, observed(stale)), "stale " + stale + " of " + key);
                totals.plantedStale++;
            });
            if (history.stream().anyMatch(w -> w.key().equals(key) && w.acknowledged())) {
                refused(checker.checkSurvivor(key, held, Optional.empty()), "nothing left of " + key);
                totals.plantedLost++;
            }
            ExportedEntry survivor = after.get(key);
            if (survivor != null && survivor.value().length > 0) {
                byte[] torn = Arrays.copyOf(survivor.value(), survivor.value().length - 1);
                refused(checker.checkSurvivor(key, held, Optional.of(ClientWrite.observe(survivor.bytes(), torn))),
                        "a torn value of " + key);
                totals.plantedTorn++;
            }
        }
    }

    /**
     * The checker, given this schedule's real reads with one changed, must refuse it: per key, the first read that
     * came after an acknowledgement that superseded another, made to return the newest value so superseded.
     */
    private static void plantStaleReads(AcknowledgementOrderChecker checker, List<ClientRead> reads,
            Map<String, ExportedEntry> before, Totals totals) {
        Set<String> planted = new HashSet<>();
        for (ClientRead read : reads) {
            if (planted.contains(read.key())) {
                continue;
            }
            Optional<ClientWrite> stale = newestAnswered(checker.superseded(read));
            if (stale.isPresent()) {
                ClientRead wrong = new ClientRead(read.key(), observed(stale.get()), read.startNanos(), read.endNanos());
                refused(checker.checkRead(wrong, Optional.ofNullable(before.get(read.key())).map(ClientWrite::observe)),
                        "a read of stale " + stale.get());
                planted.add(read.key());
                totals.plantedStaleReads++;
            }
        }
    }

    private static Optional<ClientWrite> newestAnswered(List<ClientWrite> writes) {
        return writes.stream().max(Comparator.comparingLong(ClientWrite::answeredNanos));
    }

    private static Optional<Observed> observed(ClientWrite write) {
        return Optional.of(ClientWrite.observe(write.entry()));
    }

    private static void refused(Optional<String> violation, String planted) {
        if (violation.isEmpty()) {
            fail("the checker accepted a planted wrong outcome: " + planted);
        }
    }

    static String replayCommand(long seed) {
        return "mvn -B -ntp verify -pl store-examples -am -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false"
                + " -Dit.test=" + SqliteCrashSchedulesIT.class.getSimpleName() + " -D" + SEED_PROPERTY + "=" + seed
                + " -D" + COUNT_PROPERTY + "=1";
    }

    private ServerJar.Running serve(String storage, int index) throws IOException, InterruptedException {
        return ServerJar.serve(directory, "server-" + index, STEP, "--port", "0", "--storage", storage);
    }

    /** The tool's {@code export}, run in this JVM while the restarted server runs, as an operator would. */
    private static Map<String, ExportedEntry> export(String storage) throws IOException {
        ToolRun export = ToolRun.run("export", "--storage", storage);
        assertEquals(0, export.status, export.toString());
        return ExportedEntry.parse(export.outText().lines().toList());
    }

    /** What the run checked, for its summary. */
    private static final class Totals {
        long writes;
        long reads;
        long acknowledged;
        long largeAcknowledged;
        long unanswered;
        long superseded;
        int plantedStale;
        int plantedLost;
        int plantedTorn;
        int plantedStaleReads;
    }

    // ---- one schedule's load -------------------------------------------------------------------------------

    /** The schedule's client threads against one server, and what they saw. */
    private static final class Load {
        final Collection<ClientWrite> history = new ConcurrentLinkedQueue<>();
        final Collection<ClientRead> reads = new ConcurrentLinkedQueue<>();
        /** Keys whose write was just acknowledged, for the reader. */
        private final BlockingQueue<String> justAcknowledged = new ArrayBlockingQueue<>(16);
        /** Answers other than Success, and requests unanswered before the kill: none may occur. */
        final List<String> unexpected = new CopyOnWriteArrayList<>();
        private final CrashSchedule schedule;
        private final HttpClient http;
        private final URI endpoint;
        private final Path database;
        private volatile boolean killing;
        private Process server; // guarded by this
        private int counted; // acknowledged writes of the kind the kill point counts; guarded by this

        Load(CrashSchedule schedule, HttpClient http, URI endpoint, Path database) {
            this.schedule = schedule;
            this.http = http;
            this.endpoint = endpoint;
            this.database = database;
        }

        /** Runs the writers until the schedule's kill point, SIGKILLs {@code server}, and waits for the writers. */
        void runAndKill(Process server) throws InterruptedException {
            synchronized (this) {
                this.server = server;
            }
            ExecutorService writers = Executors.newFixedThreadPool(schedule.writers() + 1);
            try {
                long deadline = System.nanoTime() + schedule.kill().after().toNanos();
                for (int w = 0; w < schedule.writers(); w++) {
                    int writer = w;
                    writers.submit(() -> write(writer));
                }
                writers.submit(this::read);
                awaitKill(deadline);
                kill();
                assertEquals(137, ServerJar.exitStatus(server, STEP), "the server's JVM did not die of SIGKILL (128 + 9)");
                writers.shutdown();
                if (!writers.awaitTermination(STEP.toMillis(), TimeUnit.MILLISECONDS)) {
                    fail("client threads still running " + STEP + " after the kill"); // the reader's file is closed
                }
            } finally {
                kill();
                writers.shutdownNow();
            }
        }

        /** Waits until a client thread killed the server, a write went wrong, or {@code deadline} passed. */
        private synchronized void awaitKill(long deadline) throws InterruptedException {
            long left;
            while (!killing && unexpected.isEmpty() && (left = deadline - System.nanoTime()) > 0) {
                TimeUnit.NANOSECONDS.timedWait(this, left);
            }
        }

        /** SIGKILLs the server, once: on Linux, to the JVM itself, started without a shell. */
        private synchronized void kill() {
            if (!killing) {
                killing = true;
                server.destroyForcibly();
                notifyAll();
            }
        }

        /** Counts {@code write}'s answer; its client thread kills the server at once if that was the kill point. */
        private synchronized void answered(ClientWrite write) {
            if (!write.acknowledged()) {
                notifyAll(); // unexpected: no need to go on
                return;
            }
            CrashSchedule.KillPoint point = schedule.kill();
            if ((!point.largeOnly() || write.large()) && ++counted >= point.acknowledged()) {
                kill();
            }
        }

        /**
         * Until the kill, reads each key as soon as a write of it was acknowledged (while it keeps up: an
         * acknowledgement that finds {@link #justAcknowledged} full is not read), through a read-only connection of
         * its own to the server's file. The connection is closed after the kill, before the restart: a read-only
         * connection never checkpoints, so the restarted server recovers the file as the killed one left it.
         */
        private void read() {
            SQLiteConfig readOnly = new SQLiteConfig();
            readOnly.setReadOnly(true);
            readOnly.setBusyTimeout((int) STEP.toMillis());
            try (Connection connection = readOnly.createConnection("jdbc:sqlite:" + database);
                    PreparedStatement get = connection.prepareStatement(GET)) {
                while (!killing) {
                    String key = justAcknowledged.poll(10, TimeUnit.MILLISECONDS);
                    if (key == null) {
                        continue;
                    }
                    get.setString(1, key);
                    long start = System.nanoTime();
                    boolean found;
                    boolean bytes = false;
                    byte[] value = null;
                    try (ResultSet row = get.executeQuery()) {
                        found = row.next();
                        if (found) {
                            bytes = row.getString(1).equals("B");
                            value = bytes ? row.getBytes(3) : row.getString(2).getBytes(StandardCharsets.UTF_8);
                        }
                    }
                    long end = System.nanoTime();
                    reads.add(new ClientRead(key, found ? Optional.of(ClientWrite.observe(bytes, value)) : Optional.empty(),
                            start, end));
                }
            } catch (SQLException | RuntimeException e) {
                if (!killing) {
                    unexpected.add("a read failed before the kill: " + e);
                    synchronized (this) {
                        notifyAll();
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private void write(int writer) {
            SplittableRandom random = schedule.writerRandom(writer);
            for (int sequence = 0; sequence < MAX_WRITES_PER_WRITER && !killing; sequence++) {
                CrashSchedule.Planned planned = schedule.next(random, writer, sequence);
                ClientWrite write = planned.sentAt(0);
                // The value is made before the clock starts: the interval is the request's.
                String text = write.kind() == ClientWrite.Kind.TEXT ? write.text() : null;
                byte[] bytes = text == null ? write.bytes() : null;
                write = planned.sentAt(System.nanoTime());
                try {
                    boolean success = text != null
                            ? WireWrites.writeString(http, endpoint, write.key(), text)
                            : WireWrites.writeBytes(http, endpoint, write.key(), bytes);
                    write = write.answered(success, System.nanoTime());
                    if (success) {
                        justAcknowledged.offer(write.key());
                    } else {
                        unexpected.add("answered Error: " + write);
                    }
                    answered(write);
                } catch (IOException e) {
                    if (!killing) {
                        unexpected.add("no answer before the kill: " + write + ": " + e);
                        answered(write);
                    }
                    return; // the server is gone
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                } finally {
                    history.add(write); // answered or not: a write whose outcome is unknown may still survive
                }
            }
        }
    }
}
