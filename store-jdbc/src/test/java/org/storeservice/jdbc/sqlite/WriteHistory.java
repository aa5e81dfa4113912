package org.storeservice.jdbc.sqlite;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the clients of a fault schedule were told, checked against the row history SQLite's own triggers recorded in
 * the writer's transactions (every insert and update of the entry table, in commit order): a register per key, each
 * write carrying a value of its own. It finds
 * <ul>
 *   <li>a write answered Success whose value was not stored exactly once, and one answered Error (or never
 *       answered) whose value was stored;</li>
 *   <li>a stored value no write sent;</li>
 *   <li>real-time order broken: two writes of a key answered Success, the second sent after the first was answered,
 *       stored the other way round;</li>
 *   <li>answer order broken: two answers of a key that reached their callers in another order than the writer
 *       committed (or failed) them.</li>
 * </ul>
 */
final class WriteHistory {

    /** The history table and its triggers, created on the writer's connection before the writer starts. */
    static void install(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            statement.execute("CREATE TABLE history (seq INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT, value TEXT)");
            String value = "COALESCE(NEW.text_value, CAST(substr(NEW.bytes_value, 1, " + ID_BYTES + ") AS TEXT))";
            for (String op : List.of("INSERT", "UPDATE")) {
                statement.execute("CREATE TRIGGER history_" + op + " AFTER " + op + " ON store_entries"
                        + " WHEN NEW.key <> '" + UNRECORDED_KEY + "' BEGIN"
                        + " INSERT INTO history (key, value) VALUES (NEW.key, " + value + "); END");
            }
        }
    }

    /** A key whose writes the history leaves out: the schedule's probes, outside its checked writes. */
    static final String UNRECORDED_KEY = "probe";

    /** Each write's value starts with its id, this long: the whole of a text value, the head of a byte value. */
    static final int ID_BYTES = 10;

    static String id(int n) {
        return String.format("w%09d", n);
    }

    /**
     * One write as its client saw it. {@code sent} and {@code seen} are steps of the schedule's clock, taken before
     * the call and once the client had its answer; {@code arrived} the step at which the answer reached the write's
     * future on the thread that gave it (-1 if it reached it on the client's own thread: its order is unknown);
     * {@code lastBind} the step of the write's last bind on the writer (-1: never bound).
     */
    record Op(String id, String key, long sent, long seen, long arrived, boolean success, long lastBind) {
    }

    private final List<String> violations = new ArrayList<>();

    List<String> violations() {
        return violations;
    }

    /** Checks {@code ops} against the history in {@code connection}'s database. */
    void check(List<Op> ops, Connection connection) throws SQLException {
        Map<String, List<Long>> storedAt = new HashMap<>();
        try (Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT seq, key, value FROM history ORDER BY seq")) {
            while (rows.next()) {
                storedAt.computeIfAbsent(rows.getString(3), v -> new ArrayList<>()).add(rows.getLong(1));
            }
        }
        Map<String, Op> byId = new HashMap<>();
        for (Op op : ops) {
            byId.put(op.id(), op);
            int times = storedAt.getOrDefault(op.id(), List.of()).size();
            if (op.success() && times != 1) {
                violations.add(op + ": answered Success, stored " + times + " times");
            } else if (!op.success() && times != 0) {
                violations.add(op + ": answered Error (or never), yet stored " + times + " times");
            }
        }
        for (String value : storedAt.keySet()) {
            if (!byId.containsKey(value)) {
                violations.add("stored value " + value + " that no write sent");
            }
        }
        Map<String, List<Op>> byKey = new HashMap<>();
        for (Op op : ops) {
            byKey.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
        }
        for (List<Op> ofKey : byKey.values()) {
            checkOrder(ofKey, storedAt);
        }
    }

    private void checkOrder(List<Op> ofKey, Map<String, List<Long>> storedAt) {
        for (Op a : ofKey) {
            for (Op b : ofKey) {
                if (a == b || !a.success()) {
                    continue;
                }
                long seqA = storedAt.getOrDefault(a.id(), List.of(-1L)).get(0);
                if (b.success()) {
                    long seqB = storedAt.getOrDefault(b.id(), List.of(-1L)).get(0);
                    if (b.sent() > a.seen() && seqB < seqA) {
                        violations.add(b + " was sent after " + a + " was answered, yet stored before it");
                    }
                    if (seqA < seqB && a.arrived() >= 0 && b.arrived() >= 0 && b.arrived() < a.arrived()) {
                        violations.add(b + " was answered ahead of " + a + ", committed before it");
                    }
                } else if (a.lastBind() >= 0 && a.lastBind() < b.lastBind() && a.arrived() >= 0 && b.arrived() >= 0
                        && b.arrived() < a.arrived()) {
                    // a committed, and was handed to its key's answering thread, before b's last try began
                    violations.add(b + " was answered Error ahead of " + a + ", committed before b's last try");
                }
            }
        }
    }
}
