package org.storeservice.jdbc.postgres;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Checks what clients were told against the row history a trigger recorded (every insert, update and delete of the
 * entry table, in the order the database serialized them per key), in the spirit of Jepsen's checkers. Every write
 * carries a value of its own, so each row version names the write that made it. It finds:
 * <ul>
 *   <li>an acknowledged write that did not take effect exactly once (a value twice is a write committed twice; an
 *       acknowledged value missing, a write acknowledged but never committed);</li>
 *   <li>a REJECT or a delete answered other than its commit decided (a REJECT answered {@code false} whose value is
 *       there, one answered {@code true} that did not insert; more or fewer deletions of a key than deletes answered
 *       {@code true});</li>
 *   <li>an {@code Error} for a write that took effect, except one whose commit was still in doubt when its failover
 *       time-out ran out: those are counted apart, and in a schedule whose faults all end within the time-out, no
 *       {@code Error} at all is allowed;</li>
 *   <li>a value that returns after a later acknowledged one: for two acknowledged writes of a key, the second sent
 *       after the first was answered, the database must have ordered them so;</li>
 *   <li>a row version no write sent.</li>
 * </ul>
 * Writes of one key whose request and answer overlap may be ordered either way; in a batch, two writes of one key
 * stand as if one after another, so the schedules never put two writes of one key in one server's queue at once.
 */
final class HistoryChecker {

    enum Kind { REPLACE, REJECT, DELETE }

    enum Answer { TRUE, FALSE, ERROR }

    /**
     * One write as its client saw it: {@code value} names it in the history (null for a delete); {@code started} and
     * {@code answered} are {@link System#nanoTime()}; {@code inDoubt} for an {@code Error} that said the write may or
     * may not be stored.
     */
    record Op(String server, String key, Kind kind, String value, long started, long answered, Answer answer,
            boolean inDoubt) {
    }

    /** One row version: {@code op} is insert, update or delete; {@code value} null for a delete. */
    record Event(long seq, String op, String key, String value) {
    }

    /** What the check found. */
    record Result(int writes, int inDoubtTookEffect, int inDoubtDidNot, int errors, List<String> violations) {
    }

    private HistoryChecker() {
    }

    /** Checks {@code ops} against {@code history}; {@code errorsAllowed}: whether a fault outlasted the time-out. */
    static Result check(List<Op> ops, List<Event> history, boolean errorsAllowed) {
        List<String> violations = new ArrayList<>();
        Map<String, List<Event>> byValue = new HashMap<>();
        Map<String, Integer> deletions = new HashMap<>();
        for (Event event : history) {
            if (event.op().equals("delete")) {
                deletions.merge(event.key(), 1, Integer::sum);
            } else {
                byValue.computeIfAbsent(event.value(), v -> new ArrayList<>()).add(event);
            }
        }
        Map<String, Op> opByValue = new HashMap<>();
        Map<String, int[]> deletesByKey = new HashMap<>(); // answered true, in doubt
        int inDoubtTookEffect = 0;
        int inDoubtDidNot = 0;
        int errors = 0;
        for (Op op : ops) {
            if (op.answer() == Answer.ERROR) {
                errors++;
                if (!errorsAllowed) {
                    violations.add(op + ": Error, though every fault of the schedule ended within the failover time-out");
                }
            }
            if (op.kind() == Kind.DELETE) {
                int[] counts = deletesByKey.computeIfAbsent(op.key(), k -> new int[2]);
                if (op.answer() == Answer.TRUE) {
                    counts[0]++;
                } else if (op.answer() == Answer.ERROR && op.inDoubt()) {
                    counts[1]++;
                }
                continue;
            }
            opByValue.put(op.value(), op);
            List<Event> events = byValue.getOrDefault(op.value(), List.of());
            if (events.size() > 1) {
                violations.add(op + ": took effect " + events.size() + " times: " + events);
                continue;
            }
            boolean tookEffect = events.size() == 1;
            switch (op.answer()) {
                case TRUE -> {
                    if (!tookEffect) {
                        violations.add(op + ": answered true, but never took effect");
                    } else if (op.kind() == Kind.REJECT && !events.get(0).op().equals("insert")) {
                        violations.add(op + ": a REJECT answered true, but it " + events.get(0).op() + "d the row");
                    }
                }
                case FALSE -> {
                    if (tookEffect) {
                        violations.add(op + ": answered false, but took effect: " + events.get(0));
                    }
                }
                case ERROR -> {
                    if (op.inDoubt()) {
                        if (tookEffect) {
                            inDoubtTookEffect++;
                        } else {
                            inDoubtDidNot++;
                        }
                    } else if (tookEffect) {
                        violations.add(op + ": answered Error (not in doubt), but took effect: " + events.get(0));
                    }
                }
            }
        }
        for (Event event : history) {
            if (!event.op().equals("delete") && !opByValue.containsKey(event.value())) {
                violations.add("a row version no write sent: " + event);
            }
        }
        deletesByKey.forEach((key, counts) -> {
            int deleted = deletions.getOrDefault(key, 0);
            if (deleted < counts[0] || deleted > counts[0] + counts[1]) {
                violations.add(key + ": " + deleted + " deletions in the history, but " + counts[0]
                        + " deletes answered true and " + counts[1] + " in doubt");
            }
        });
        deletions.forEach((key, deleted) -> {
            if (!deletesByKey.containsKey(key)) {
                violations.add(key + ": " + deleted + " deletions in the history, but no delete was sent");
            }
        });
        checkRealTimeOrder(ops, byValue, violations);
        int writes = ops.size();
        return new Result(writes, inDoubtTookEffect, inDoubtDidNot, errors, violations);
    }

    /** For acknowledged writes a and b of one key, b sent after a was answered: a's row version comes first. */
    private static void checkRealTimeOrder(List<Op> ops, Map<String, List<Event>> byValue, List<String> violations) {
        Map<String, List<Op>> acknowledged = new HashMap<>();
        for (Op op : ops) {
            if (op.kind() != Kind.DELETE && op.answer() == Answer.TRUE && byValue.containsKey(op.value())) {
                acknowledged.computeIfAbsent(op.key(), k -> new ArrayList<>()).add(op);
            }
        }
        for (List<Op> writes : acknowledged.values()) {
            for (Op a : writes) {
                for (Op b : writes) {
                    if (a.answered() - b.started() < 0 && seq(byValue, b) < seq(byValue, a)) {
                        violations.add(a + " was answered before " + b + " was sent, but the database put it after:"
                                + " a value came back after a later acknowledged one");
                    }
                }
            }
        }
    }

    private static long seq(Map<String, List<Event>> byValue, Op op) {
        return byValue.get(op.value()).get(0).seq();
    }
}
