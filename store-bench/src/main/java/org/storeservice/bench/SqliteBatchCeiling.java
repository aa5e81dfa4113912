package org.storeservice.bench;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
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
 * the way: one thread, one connection, an upsert per write, one transaction per batch of B writes. It is the
 * ceiling for {@link StorageWriteBenchmark}'s SQLite rows: with B concurrent writers the group-committing
 * writer can at best commit batches of B, so its rate at N writers is bounded by this one at B = N.
 *
 * <p>Keys follow {@code StorageWriteBenchmark}'s ({@code t<i>-<n>}, B writers' worth, 10,000 keys (or {@code --keys}) split between
 * them), so the B-trees see the same insert pattern. Schema {@code storage} is created by opening the real
 * storage once, so it cannot drift, and written with the storage's upsert ({@code org.storeservice.jdbc.Sql}'s;
 * keep them in step); the other schemas are the candidates it was measured against, each with its own DDL:
 * <ul>
 *   <li>{@code rowid3}: the schema of version 1: a rowid table, primary key {@code key}, an index on
 *       {@code key_order}: three B-trees per write;
 *   <li>{@code rowid2}: a rowid table whose only key is {@code key_order} (unique): two B-trees;
 *   <li>{@code norowid-key}: WITHOUT ROWID, primary key {@code key}, an index on {@code key_order}: two;
 *   <li>{@code norowid-order}: WITHOUT ROWID, primary key {@code key_order}: one.
 * </ul>
 *
 * <p>Options: {@code --synchronous FULL,NORMAL}, {@code --batches 1,8,64}, {@code --schemas storage},
 * {@code --statement update|batch} (executeUpdate per write, or addBatch/executeBatch per transaction),
 * {@code --value bytes1k|bytes64k|text40|text100}, {@code --keys 10000} (the key pool, split between the B writers:
 * 64 is wb64k's), {@code --warmup-seconds 2}, {@code --seconds 5},
 * {@code --dir store-bench/target/bench-data}. Prints a Markdown table: writes/s (and the ratio to the first batch
 * size), and the thread's CPU time per write, which the fsync waits of a busy disk do not inflate.
 */
public final class SqliteBatchCeiling {
    private int totalKeys = 10_000;
    private static final ThreadMXBean CPU = ManagementFactory.getThreadMXBean();
    private static final String TABLE = "store_entries";
    private static final String COLUMNS = " (key, key_order, kind, text_value, bytes_value, written_at) VALUES (?, ?, ?, ?, ?, ?)";
    private static final String SET = " DO UPDATE SET kind = excluded.kind, text_value = excluded.text_value,"
            + " bytes_value = excluded.bytes_value, written_at = excluded.written_at";
    private static final String VALUE_COLUMNS = "kind TEXT NOT NULL CHECK (kind IN ('T', 'B')), text_value TEXT,"
            + " bytes_value BLOB, written_at INTEGER NOT NULL";

    private List<String> modes = List.of("FULL", "NORMAL");
    private int[] batches = {1, 8, 64};
    private List<String> schemas = List.of("storage");
    private boolean executeBatch;
    private String value = "bytes1k";
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
                case "--schemas" -> ceiling.schemas = List.of(args[i + 1].split(","));
                case "--statement" -> ceiling.executeBatch = switch (args[i + 1]) {
                    case "update" -> false;
                    case "batch" -> true;
                    default -> throw new IllegalArgumentException("--statement update|batch");
                };
                case "--value" -> ceiling.value = args[i + 1];
                case "--keys" -> ceiling.totalKeys = Integer.parseInt(args[i + 1]);
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
        System.out.printf("SQL alone: writes/s committed by one thread, one transaction per batch of B upserts (%s, %s);"
                + " warm-up %d s, measured %d s per cell%n%n", value, executeBatch ? "executeBatch" : "executeUpdate",
                warmupSeconds, seconds);
        StringBuilder header = new StringBuilder("| schema | synchronous |");
        StringBuilder rule = new StringBuilder("|---|---|");
        for (int batch : batches) {
            header.append(" B = ").append(batch).append(" |");
            rule.append("---:|");
        }
        System.out.println(header);
        System.out.println(rule);
        for (String schema : schemas) {
            for (String mode : modes) {
                StringBuilder row = new StringBuilder("| ").append(schema).append(" | ").append(mode).append(" |");
                double single = 0;
                for (int batch : batches) {
                    double[] result = measure(schema, mode, batch);
                    double rate = result[0];
                    if (batch == batches[0]) {
                        single = rate;
                        row.append(String.format(" %,.0f, %.1f µs |", rate, result[1]));
                    } else {
                        row.append(String.format(" %,.0f (%.1fx), %.1f µs |", rate, rate / single, result[1]));
                    }
                }
                System.out.println(row);
            }
        }
    }

    /** The upsert for {@code schema}, after creating the schema in {@code file}. */
    private static String createSchema(String schema, Connection connection) throws SQLException {
        if (schema.equals("storage")) {
            return null;
        }
        String ddl = switch (schema) {
            case "rowid3" -> "CREATE TABLE " + TABLE + " (key TEXT NOT NULL PRIMARY KEY, key_order BLOB NOT NULL, "
                    + VALUE_COLUMNS + "); CREATE INDEX " + TABLE + "_key_order ON " + TABLE + " (key_order)";
            case "rowid2" -> "CREATE TABLE " + TABLE + " (key TEXT NOT NULL, key_order BLOB NOT NULL UNIQUE, "
                    + VALUE_COLUMNS + ")";
            case "norowid-key" -> "CREATE TABLE " + TABLE + " (key TEXT NOT NULL PRIMARY KEY, key_order BLOB NOT NULL, "
                    + VALUE_COLUMNS + ") WITHOUT ROWID; CREATE INDEX " + TABLE + "_key_order ON " + TABLE + " (key_order)";
            case "norowid-order" -> "CREATE TABLE " + TABLE + " (key_order BLOB NOT NULL PRIMARY KEY, key TEXT NOT NULL, "
                    + VALUE_COLUMNS + ") WITHOUT ROWID";
            default -> throw new IllegalArgumentException("Unknown schema " + schema);
        };
        try (Statement statement = connection.createStatement()) {
            for (String sql : ddl.split("; ")) {
                statement.execute(sql);
            }
        }
        String conflict = schema.equals("rowid3") || schema.equals("norowid-key") ? "key" : "key_order";
        return "INSERT INTO " + TABLE + COLUMNS + " ON CONFLICT (" + conflict + ")" + SET;
    }

    /** Writes per second, and the writing thread's CPU time per write in µs, over the measured window. */
    private double[] measure(String schema, String mode, int batch) throws IOException, SQLException {
        Path file = directory.resolve(runId + "-ceiling-" + schema + "-" + mode + "-" + batch + ".db");
        if (schema.equals("storage")) {
            Storages.open("sqlite:" + file + "?synchronous=" + mode).close(); // the storage itself creates the schema
        }
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.valueOf(mode));
        config.setWalAutocheckpoint(10_000); // as the storage's writer
        config.setGetGeneratedKeys(false);
        byte[] bytes = null;
        String text = null;
        switch (value) {
            case "bytes1k" -> {
                bytes = new byte[1024];
                new Random(1).nextBytes(bytes);
            }
            case "bytes64k" -> { // wb64k's value: 64 KiB, overflow pages in SQLite
                bytes = new byte[64 * 1024];
                new Random(1).nextBytes(bytes);
            }
            case "text40" -> text = "x".repeat(40);
            case "text100" -> text = "x".repeat(100);
            default -> throw new IllegalArgumentException("--value bytes1k|bytes64k|text40|text100");
        }
        try (Connection connection = config.createConnection("jdbc:sqlite:" + file)) {
            String created = createSchema(schema, connection);
            String upsertSql = created != null ? created : "INSERT INTO " + TABLE + COLUMNS + " ON CONFLICT (key)" + SET;
            // BEGIN and COMMIT prepared once, as the storage's writer does: SQLite's own cost, without parsing them.
            try (PreparedStatement upsert = connection.prepareStatement(upsertSql);
                    PreparedStatement begin = connection.prepareStatement("BEGIN IMMEDIATE");
                    PreparedStatement commit = connection.prepareStatement("COMMIT")) {
                long start = System.nanoTime();
                long measureFrom = start + warmupSeconds * 1_000_000_000L;
                long end = measureFrom + seconds * 1_000_000_000L;
                long written = 0;
                long cpuFrom = -1;
                long cpuTo = 0;
                long[] next = new long[batch];
                while (true) {
                    long now = System.nanoTime();
                    if (now >= end) {
                        break;
                    }
                    if (now >= measureFrom && cpuFrom < 0) {
                        cpuFrom = CPU.getCurrentThreadCpuTime();
                    }
                    begin.execute();
                    for (int writer = 0; writer < batch; writer++) {
                        String key = "t" + writer + "-" + (next[writer]++ % Math.max(1, totalKeys / batch));
                        upsert.setString(1, key);
                        upsert.setBytes(2, key.getBytes(StandardCharsets.UTF_16BE));
                        upsert.setString(3, bytes != null ? "B" : "T");
                        if (text != null) {
                            upsert.setString(4, text);
                            upsert.setNull(5, Types.BINARY);
                        } else {
                            upsert.setNull(4, Types.VARCHAR);
                            upsert.setBytes(5, bytes);
                        }
                        upsert.setLong(6, System.currentTimeMillis() * 1000);
                        if (executeBatch) {
                            upsert.addBatch();
                        } else {
                            upsert.executeUpdate();
                        }
                    }
                    if (executeBatch) {
                        upsert.executeBatch();
                    }
                    commit.execute();
                    if (now >= measureFrom && System.nanoTime() <= end) {
                        written += batch;
                        cpuTo = CPU.getCurrentThreadCpuTime();
                    }
                }
                return new double[] {written / (double) seconds, (cpuTo - cpuFrom) / 1000.0 / Math.max(1, written)};
            }
        }
    }
}
