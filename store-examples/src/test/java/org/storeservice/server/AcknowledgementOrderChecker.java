package org.storeservice.server;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Checks what a key holds after a crash against what the clients of its writes saw: acknowledgement order per key.
 *
 * <p>The model: each key is a register. A write takes effect, if at all, at one instant between the sending of its
 * request and the arrival of its answer; a write answered {@code Success} (acknowledged) took effect; a write
 * answered otherwise did not; a write with no answer (in flight at the kill) may have or not. What survives is the
 * last write to take effect, or what the key held before the schedule if none did. So writes of one key whose
 * request-to-answer intervals overlap may survive in either order, and a write is <em>superseded</em> once an
 * acknowledged write of its key was sent after its answer arrived: that later write took effect after it.
 *
 * <p>Hence, with L the acknowledged write of the key that was sent last, what the key holds after the crash must be
 * <ul>
 *   <li>a whole value that a client sent to this key (or the key's value before the schedule), of the operation that
 *       sent it (text from WriteString, bytes from WriteBytes), not from a write answered Error;</li>
 *   <li>if anything was acknowledged: L's value, or that of a write whose answer came after L was sent (concurrent
 *       with L, sent after it, or never answered), never that of a write answered before L was sent, which includes
 *       every acknowledged write that L's predecessors superseded; the value held before the schedule counts as
 *       answered before every write of it, and a key that held nothing must hold something now.</li>
 * </ul>
 * This is exact, not merely sufficient: any outcome that passes can be produced by choosing instants inside the
 * intervals (L's and the other acknowledged writes' just after their sending, the survivor's just before its answer)
 * and letting the unanswered writes that did not survive not take effect.
 */
final class AcknowledgementOrderChecker {
    private final Map<String, List<ClientWrite>> byKey = new HashMap<>();
    private final Map<String, ClientWrite> byId = new HashMap<>();
    private final long origin;

    /** A checker of the schedule whose writes, as their clients saw them, are {@code history}. */
    AcknowledgementOrderChecker(Collection<ClientWrite> history) {
        long first = Long.MAX_VALUE;
        for (ClientWrite write : history) {
            byKey.computeIfAbsent(write.key(), k -> new ArrayList<>()).add(write);
            if (byId.put(write.id(), write) != null) {
                throw new IllegalArgumentException("two writes with id " + write.id());
            }
            first = Math.min(first, write.sentNanos());
        }
        this.origin = first;
    }

    /**
     * Every violation, one line each, of the keys written by the schedule or held before or after it, given what
     * the store held before the schedule and what it holds after the crash; empty if the outcome is possible.
     */
    List<String> check(Map<String, ExportedEntry> before, Map<String, ExportedEntry> after) {
        TreeSet<String> keys = new TreeSet<>(byKey.keySet());
        keys.addAll(before.keySet());
        keys.addAll(after.keySet());
        List<String> violations = new ArrayList<>();
        for (String key : keys) {
            check(key, Optional.ofNullable(before.get(key)), Optional.ofNullable(after.get(key))).ifPresent(violations::add);
        }
        return violations;
    }

    /** The violation, if any, of {@code key} holding {@code after} when it held {@code before} at the start. */
    Optional<String> check(String key, Optional<ExportedEntry> before, Optional<ExportedEntry> after) {
        List<ClientWrite> writes = byKey.getOrDefault(key, List.of());
        ClientWrite last = lastSentAcknowledged(writes);
        if (after.isEmpty()) {
            if (before.isPresent()) {
                return violation(key, "held a value before the schedule and nothing after it (nothing deletes)");
            }
            return last == null ? Optional.empty()
                    : violation(key, "lost: " + describe(last) + " was acknowledged, and the key holds nothing");
        }
        ExportedEntry survivor = after.get();
        Optional<String> id = ClientWrite.idOf(survivor);
        ClientWrite written = id.map(byId::get).orElse(null);
        if (written == null) {
            if (before.isEmpty() || !before.get().equals(survivor)) {
                return violation(key, "holds a value that the schedule did not send and the key did not hold before it ("
                        + survivor + id.map(i -> ", starting with id " + i).orElse("") + ")");
            }
            return last == null ? Optional.empty()
                    : violation(key, "stale: it still holds its value from before the schedule, though " + describe(last)
                            + " was acknowledged");
        }
        if (!written.key().equals(key)) {
            return violation(key, "holds the value of " + written + ", which was sent to " + written.key());
        }
        ExportedEntry sent = written.entry();
        if (sent.bytes() != survivor.bytes()) {
            return violation(key, "holds " + written + " as " + (survivor.bytes() ? "bytes" : "text"));
        }
        if (!sent.equals(survivor)) {
            return violation(key, "holds " + written + " not whole: " + survivor.value().length + " bytes of "
                    + sent.value().length + ", or not those sent");
        }
        if (written.outcome() == ClientWrite.Outcome.ANSWERED_ERROR) {
            return violation(key, "holds " + describe(written) + ", which was answered Error");
        }
        if (last != null && !written.id().equals(last.id()) && written.answeredNanos() - last.sentNanos() < 0) {
            return violation(key, "stale: holds " + describe(written) + ", though " + describe(last)
                    + " was sent after that answer and acknowledged");
        }
        return Optional.empty();
    }

    /**
     * The acknowledged writes of {@code key} that must not survive: those answered before the last acknowledged
     * write of the key was sent. How many order constraints the schedule gave the checker to catch.
     */
    List<ClientWrite> superseded(String key) {
        List<ClientWrite> writes = byKey.getOrDefault(key, List.of());
        ClientWrite last = lastSentAcknowledged(writes);
        List<ClientWrite> superseded = new ArrayList<>();
        for (ClientWrite write : writes) {
            if (last != null && write.acknowledged() && write.answeredNanos() - last.sentNanos() < 0) {
                superseded.add(write);
            }
        }
        return superseded;
    }

    /** The keys the schedule wrote. */
    Collection<String> keys() {
        return byKey.keySet();
    }

    private static ClientWrite lastSentAcknowledged(List<ClientWrite> writes) {
        ClientWrite last = null;
        for (ClientWrite write : writes) {
            if (write.acknowledged() && (last == null || write.sentNanos() - last.sentNanos() > 0)) {
                last = write;
            }
        }
        return last;
    }

    private String describe(ClientWrite write) {
        String answer = switch (write.outcome()) {
            case ACKNOWLEDGED -> ", acknowledged at " + millis(write.answeredNanos());
            case ANSWERED_ERROR -> ", answered Error at " + millis(write.answeredNanos());
            case NO_ANSWER -> ", never answered";
        };
        return write + " sent at " + millis(write.sentNanos()) + answer;
    }

    /** A time as milliseconds after the schedule's first write was sent. */
    private String millis(long nanos) {
        return String.format(java.util.Locale.ROOT, "%.3f ms", (nanos - origin) / 1e6);
    }

    private static Optional<String> violation(String key, String what) {
        return Optional.of(key + ": " + what);
    }
}
