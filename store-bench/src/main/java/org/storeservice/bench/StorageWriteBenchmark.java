package org.storeservice.bench;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;

/**
 * Durable writes per second through the storage SPI alone: N threads each call
 * {@code putBytes(key, 1 KiB, REPLACE)} (keys of its own, cycling over its share of 10,000) in a loop for a fixed time, after a warm-up, on a fresh
 * storage per (backend, N). A write counts once it returned, that is once the backend promised it.
 *
 * <p>Run only when asked (see BENCHMARKS.md); {@code mvn verify} never runs it. Options:
 * {@code --backends memory,sqlite-full,sqlite-normal,postgres}, {@code --threads 1,8,64},
 * {@code --warmup-seconds 2}, {@code --seconds 5}, {@code --dir store-bench/target/bench-data} (SQLite
 * files: put them on the disk you want to measure, not tmpfs), {@code --postgres-url URL} (default
 * {@code $STORE_TEST_POSTGRES_URL} or {@code jdbc:postgresql://127.0.0.1:5432/test?user=postgres}).
 * Prints a Markdown table.
 */
public final class StorageWriteBenchmark {
    private static final int VALUE_BYTES = 1024;
    /**
     * Keys in all, split evenly between the writers, each cycling over its share (inserts first, then
     * replacements): the table is the same size whatever the number of writers, so the columns differ in
     * concurrency alone, not in how large a table each write lands in.
     */
    private static final int TOTAL_KEYS = 10_000;
    /** Connections per PostgreSQL pool at most: the server is shared (max_connections is 100 by default). */
    private static final int MAX_POSTGRES_POOL = 32;

    private final List<String> backends;
    private final int[] threadCounts;
    private final int warmupSeconds;
    private final int seconds;
    private final Path directory;
    private final String postgresUrl;
    private final String runId = UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    private StorageWriteBenchmark(String[] args) {
        List<String> backendList = List.of("memory", "sqlite-full", "sqlite-normal", "postgres");
        String threads = "1,8,64";
        int warmup = 2;
        int measure = 5;
        String dir = "store-bench/target/bench-data";
        String url = System.getenv().getOrDefault("STORE_TEST_POSTGRES_URL",
                "jdbc:postgresql://127.0.0.1:5432/test?user=postgres");
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--backends" -> backendList = List.of(args[i + 1].split(","));
                case "--threads" -> threads = args[i + 1];
                case "--warmup-seconds" -> warmup = Integer.parseInt(args[i + 1]);
                case "--seconds" -> measure = Integer.parseInt(args[i + 1]);
                case "--dir" -> dir = args[i + 1];
                case "--postgres-url" -> url = args[i + 1];
                default -> throw new IllegalArgumentException("Unknown option " + args[i]);
            }
        }
        this.backends = backendList;
        this.threadCounts = Arrays.stream(threads.split(",")).mapToInt(Integer::parseInt).toArray();
        this.warmupSeconds = warmup;
        this.seconds = measure;
        this.directory = Path.of(dir);
        this.postgresUrl = url;
    }

    public static void main(String[] args) throws Exception {
        new StorageWriteBenchmark(args).run();
    }

    private void run() throws Exception {
        Files.createDirectories(directory);
        System.out.printf("Durable writes/s, 1 KiB values, putBytes(REPLACE), 10,000 keys split between the writers; warm-up %d s,"
                + " measured %d s per cell%n%n", warmupSeconds, seconds);
        StringBuilder header = new StringBuilder("| backend |");
        StringBuilder rule = new StringBuilder("|---|");
        for (int threads : threadCounts) {
            header.append(' ').append(threads).append(threads == 1 ? " writer |" : " writers |");
            rule.append("---:|");
        }
        System.out.println(header);
        System.out.println(rule);
        boolean usedPostgres = false;
        try {
            for (String backend : backends) {
                StringBuilder row = new StringBuilder("| ").append(backend).append(" |");
                double single = 0;
                for (int threads : threadCounts) {
                    usedPostgres |= backend.equals("postgres");
                    double rate;
                    try (Storage storage = open(backend, threads)) {
                        rate = measure(storage, threads);
                    }
                    if (threads == threadCounts[0]) {
                        single = rate;
                    }
                    row.append(String.format(" %,.0f", rate));
                    if (threads != threadCounts[0] && single > 0) {
                        row.append(String.format(" (%.1fx)", rate / single));
                    }
                    row.append(" |");
                }
                System.out.println(row);
            }
        } finally {
            if (usedPostgres) {
                dropPostgresSchema();
            }
        }
    }

    private Storage open(String backend, int threads) throws IOException, SQLException {
        String cell = backend.replace('-', '_') + "_" + threads;
        switch (backend) {
            case "memory":
                return new MemoryStorage();
            case "sqlite-full":
            case "sqlite-normal": {
                Path file = directory.resolve(runId + "-" + cell + ".db");
                String mode = backend.endsWith("full") ? "FULL" : "NORMAL";
                return Storages.open("sqlite:" + file + "?synchronous=" + mode);
            }
            case "postgres": {
                try (Connection connection = DriverManager.getConnection(postgresUrl);
                        Statement statement = connection.createStatement()) {
                    statement.execute("CREATE SCHEMA IF NOT EXISTS " + schema());
                }
                String separator = postgresUrl.contains("?") ? "&" : "?";
                return Storages.open(postgresUrl + separator + "table=" + schema() + "." + cell
                        + "&poolSize=" + Math.max(3, Math.min(threads, MAX_POSTGRES_POOL)));
            }
            default:
                throw new IllegalArgumentException("Unknown backend " + backend);
        }
    }

    private String schema() {
        return "store_bench_" + runId;
    }

    private void dropPostgresSchema() throws SQLException {
        try (Connection connection = DriverManager.getConnection(postgresUrl);
                Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS " + schema() + " CASCADE");
        }
    }

    /** Writes per second over the measured window, across all threads. */
    private double measure(Storage storage, int threads) throws InterruptedException {
        byte[] value = new byte[VALUE_BYTES];
        new Random(1).nextBytes(value);
        LongAdder written = new LongAdder();
        LongAdder failed = new LongAdder();
        CountDownLatch done = new CountDownLatch(threads);
        long start = System.nanoTime();
        long measureFrom = start + TimeUnit.SECONDS.toNanos(warmupSeconds);
        long end = measureFrom + TimeUnit.SECONDS.toNanos(seconds);
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            String prefix = "t" + t + "-";
            int keysOfThisWriter = TOTAL_KEYS / threads;
            Thread worker = new Thread(() -> {
                long n = 0;
                try {
                    while (true) {
                        long now = System.nanoTime();
                        if (now >= end) {
                            break;
                        }
                        boolean ok;
                        try {
                            ok = storage.putBytes(prefix + (n++ % keysOfThisWriter), new ByteArrayInputStream(value),
                                    OverwritePolicy.REPLACE);
                        } catch (IOException e) {
                            ok = false;
                        }
                        long after = System.nanoTime();
                        if (now >= measureFrom && after <= end) {
                            (ok ? written : failed).increment();
                        }
                    }
                } finally {
                    done.countDown();
                }
            }, "bench-writer-" + t);
            workers.add(worker);
            worker.start();
        }
        done.await();
        if (failed.sum() > 0) {
            System.err.println("warning: " + failed.sum() + " writes failed");
        }
        return written.sum() / (double) seconds;
    }
}
