package org.storeservice.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.sqlite.SQLiteConfig;
import org.storeservice.api.storage.Storages;

/**
 * The most writes per second SQLite itself commits on this disk, with none of the storage's own code in
 * the way: one thread, one connection, the storage's schema and upsert, one transaction per batch of B
 * writes. It is the ceiling for {@link StorageWriteBenchmark}'s SQLite rows: with B concurrent writers
 * the group-committing writer can at best commit batches of B, so its rate at N writers is bounded by
 * this one at B = N, and "N writers over 1 writer" by "ceiling at B = N over ceiling at B = 1".
 *
 * <p>Keys follow {@code StorageWriteBenchmark}'s ({@code t<i>-<n>}, B writers' worth, 10,000 keys split between them), so the
 * B-trees see the same insert pattern. The schema is created by opening the real storage once, so it
 * cannot drift; the upsert below is {@code org.storeservice.jdbc.Sql}'s (keep them in step).
 *
 * <p>Options: {@code --synchronous FULL,NORMAL}, {@code --batches 1,8,64}, {@code --warmup-seconds 2},
 * {@code --seconds 5}, {@code --dir store-bench/target/bench-data}. Prints a Markdown table.
 */
public final class SqliteBatchCeiling {
    private static final int VALUE_BYTES = 1024;
    private static final int TOTAL_KEYS = 10_000;
    private static final String TABLE = "store_entries";
    private static final String UPSERT = "INSERT INTO " + TABLE
            + " (key, key_order, kind, text_value, bytes_value, written_at) VALUES (?, ?, ?, ?, ?, ?)"
            + " ON CONFLICT (key) DO UPDATE SET kind = excluded.kind,"
            + " text_value = excluded.text_value, bytes_value = excluded.bytes_value,"
            + " written_at = excluded.written_at";

    private List<String> modes = List.of("FULL", "NORMAL");
    private int[] batches = {1, 8, 64};
    private int warmupSeconds = 2;
    private int seconds = 5;
    private Path directory = Path.of("store-bench/target/bench-data");
    private final String runId = UUID.randomUUID().toString().replace("-", "").substring(0, 10);

    public static void main(String[] args) throws Exception {
        SqliteBatchCeiling ceiling = new SqliteBatchCeiling();
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--synchronous" -> ceiling.modes = List.of(args[i + 1].split(","));
                case "--batches" -> ceiling.batches = Arrays.stream(args[i + 1].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--warmup-seconds" -> ceiling.warmupSeconds = Integer.parseInt(args[i + 1]);
                case "--seconds" -> ceiling.seconds = Integer.parseInt(args[i + 1]);
                case "--dir" -> ceiling.directory = Path.of(args[i + 1]);
                default -> throw new IllegalArgumentException("Unknown option " + args[i]);
            }
        }
        ceiling.run();
    }

    private void run() throws IOException, SQLException {
        Files.createDirectories(directory);
        System.out.printf("SQL alone: writes/s committed by one thread, one transaction per batch of B upserts (1 KiB);"
                + " warm-up %d s, measured %d s per cell%n%n", warmupSeconds, seconds);
        StringBuilder header = new StringBuilder("| synchronous |");
        StringBuilder rule = new StringBuilder("|---|");
        for (int batch : batches) {
            header.append(" B = ").append(batch).append(" |");
            rule.append("---:|");
        }
        System.out.println(header);
        System.out.println(rule);
        for (String mode : modes) {
            StringBuilder row = new StringBuilder("| ").append(mode).append(" |");
            double single = 0;
            for (int batch : batches) {
                double rate = measure(mode, batch);
                if (batch == batches[0]) {
                    single = rate;
                    row.append(String.format(" %,.0f |", rate));
                } else {
                    row.append(String.format(" %,.0f (%.1fx) |", rate, rate / single));
                }
            }
            System.out.println(row);
        }
    }

    private double measure(String mode, int batch) throws IOException, SQLException {
        Path file = directory.resolve(runId + "-ceiling-" + mode + "-" + batch + ".db");
        Storages.open("sqlite:" + file + "?synchronous=" + mode).close(); // the storage itself creates the schema
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.valueOf(mode));
        config.setGetGeneratedKeys(false);
        byte[] value = new byte[VALUE_BYTES];
        new Random(1).nextBytes(value);
        try (Connection connection = config.createConnection("jdbc:sqlite:" + file);
                Statement control = connection.createStatement();
                PreparedStatement upsert = connection.prepareStatement(UPSERT)) {
            long start = System.nanoTime();
            long measureFrom = start + warmupSeconds * 1_000_000_000L;
            long end = measureFrom + seconds * 1_000_000_000L;
            long written = 0;
            long[] next = new long[batch];
            while (true) {
                long now = System.nanoTime();
                if (now >= end) {
                    break;
                }
                control.execute("BEGIN IMMEDIATE");
                for (int writer = 0; writer < batch; writer++) {
                    String key = "t" + writer + "-" + (next[writer]++ % (TOTAL_KEYS / batch));
                    upsert.setString(1, key);
                    upsert.setBytes(2, key.getBytes(StandardCharsets.UTF_16BE));
                    upsert.setString(3, "B");
                    upsert.setNull(4, Types.VARCHAR);
                    upsert.setBytes(5, value);
                    upsert.setLong(6, System.currentTimeMillis() * 1000);
                    upsert.executeUpdate();
                }
                control.execute("COMMIT");
                if (now >= measureFrom && System.nanoTime() <= end) {
                    written += batch;
                }
            }
            return written / (double) seconds;
        }
    }
}
