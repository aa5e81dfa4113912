package org.storeservice.server;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import org.storeservice.server.ClientWrite.Observed;

/**
 * Checks what a key was seen to hold, during a schedule (a read) or after its crash (the export after the restart),
 * against what the clients of its writes saw: acknowledgement order per key.
 *
 * <p>The model: each key is a register. A write takes effect, if at all, at one instant between the sending of its
 * request and the arrival of its answer; a write answered {@code Success} (acknowledged) took effect; a write
 * answered otherwise did not; a write with no answer (in flight at the kill) may have or not. A read returns, at one
 * instant between its start and its end, the last write to have taken effect by then, or what the key held before
 * the schedule if none had; what survives the crash is the last write to take effect at all. So writes of one key
 * whose request-to-answer intervals overlap may take effect, and survive, in either order; and a write is
 * <em>superseded</em> once an acknowledged write of its key was sent after its answer arrived, since that later write
 * took effect after it.
 *
 * <p>Hence, with L the acknowledged write of the key that was sent last among those answered before the observation
 * began (for the crash: all of them), what the key is seen to hold must be
 * <ul>
 *   <li>a whole value that a client sent to this key (or the key's value before the schedule), stored as the
 *       operation that sent it (text from WriteString, bytes from WriteBytes), not from a write answered Error, and,
 *       for a read, sent before the read ended;</li>
 *   <li>if there is an L: L's value, or that of a write whose answer came after L was sent (concurrent with L, sent
 *       after it, or never answered), never that of a write answered before L was sent, which includes every
 *       acknowledged write that L's predecessors superseded; the value held before the schedule counts as answered
 *       before every write of it, and a key that held nothing must hold something.</li>
 * </ul>
 * This is exact, not merely sufficient: any observation that passes can be explained by choosing instants inside the
 * intervals (L's and the other acknowledged writes' just after their sending, the observed write's just before its
 * answer or the observation's end, whichever is first) and letting the unanswered writes that were not seen not take
 * effect. (Each observation is checked on its own: this does not check that two reads of a key agree with each
 * other.)
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
            checkSurvivor(key, observed(before, key), observed(after, key)).ifPresent(violations::add);
        }
        return violations;
    }

    /** Every violation, one line each, of {@code reads}, given what the store held before the schedule. */
    List<String> checkReads(Collection<ClientRead> reads, Map<String, ExportedEntry> before) {
        List<String> violations = new ArrayList<>();
        for (ClientRead read : reads) {
            checkRead(read, observed(before, read.key())).ifPresent(violations::add);
        }
        return violations;
    }

    /** The violation, if any, of {@code key} holding {@code after} after the crash when it held {@code before}. */
    Optional<String> checkSurvivor(String key, Optional<Observed> before, Optional<Observed> after) {
        return check(key, before, after, Window.AFTER_THE_CRASH);
    }

    /** The violation, if any, of {@code read}, when its key held {@code before} at the start of the schedule. */
    Optional<String> checkRead(ClientRead read, Optional<Observed> before) {
        return check(read.key(), before, read.value(), new Window(read.startNanos(), read.endNanos()));
    }

    private Optional<String> check(String key, Optional<Observed> before, Optional<Observed> seen, Window window) {
        ClientWrite last = lastSentAcknowledged(key, window);
        String what = window.describe(this);
        if (seen.isEmpty()) {
            if (before.isPresent()) {
                return violation(key, what + " it held nothing, though it held a value before the schedule"
                        + " (nothing deletes)");
            }
            return last == null ? Optional.empty()
                    : violation(key, what + " it held nothing, though " + describe(last) + " was acknowledged");
        }
        Observed value = seen.get();
        ClientWrite written = value.namedId().map(byId::get).orElse(null);
        if (written == null) {
            if (before.isEmpty() || !value.whole() || value.id() == null || !value.id().equals(before.get().id())) {
                return violation(key, what + " it held a value that the schedule did not send and the key did not hold"
                        + " before it (" + value + ")");
            }
            return last == null ? Optional.empty()
                    : violation(key, "stale: " + what + " it still held its value from before the schedule, though "
                            + describe(last) + " was acknowledged");
        }
        if (!written.key().equals(key)) {
            return violation(key, what + " it held the value of " + written + ", which was sent to " + written.key());
        }
        if (!value.whole()) {
            return violation(key, what + " it held " + written + " not whole, or not as sent (" + value + ")");
        }
        if (written.outcome() == ClientWrite.Outcome.ANSWERED_ERROR) {
            return violation(key, what + " it held " + describe(written) + ", which was answered Error");
        }
        if (!window.sentBeforeItEnded(written)) {
            return violation(key, what + " it held " + describe(written) + ", sent after the read ended");
        }
        if (last != null && !written.id().equals(last.id()) && written.answeredBefore(last.sentNanos())) {
            return violation(key, "stale: " + what + " it held " + describe(written) + ", though " + describe(last)
                    + " was sent after that answer and acknowledged");
        }
        return Optional.empty();
    }

    /**
     * The acknowledged writes of {@code key} that must not survive the crash: those answered before the last
     * acknowledged write of the key was sent. How many order constraints the schedule gave the checker to catch.
     */
    List<ClientWrite> superseded(String key) {
        return superseded(key, Window.AFTER_THE_CRASH);
    }

    /** The acknowledged writes of its key that {@code read} must not return. */
    List<ClientWrite> superseded(ClientRead read) {
        return superseded(read.key(), new Window(read.startNanos(), read.endNanos()));
    }

    private List<ClientWrite> superseded(String key, Window window) {
        ClientWrite last = lastSentAcknowledged(key, window);
        List<ClientWrite> superseded = new ArrayList<>();
        for (ClientWrite write : byKey.getOrDefault(key, List.of())) {
            if (last != null && write.acknowledged() && write.answeredBefore(last.sentNanos())) {
                superseded.add(write);
            }
        }
        return superseded;
    }

    /** The keys the schedule wrote. */
    Collection<String> keys() {
        return byKey.keySet();
    }

    /** Of the writes of {@code key} acknowledged before {@code window} began, the one sent last. */
    private ClientWrite lastSentAcknowledged(String key, Window window) {
        ClientWrite last = null;
        for (ClientWrite write : byKey.getOrDefault(key, List.of())) {
            if (write.acknowledged() && window.answeredBeforeItBegan(write)
                    && (last == null || write.sentNanos() - last.sentNanos() > 0)) {
                last = write;
            }
        }
        return last;
    }

    private static Optional<Observed> observed(Map<String, ExportedEntry> entries, String key) {
        return Optional.ofNullable(entries.get(key)).map(ClientWrite::observe);
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
        return String.format(Locale.ROOT, "%.3f ms", (nanos - origin) / 1e6);
    }

    private static Optional<String> violation(String key, String what) {
        return Optional.of(key + ": " + what);
    }

    /** When a key was seen: during a read, from its start to its end; or after the crash, after everything. */
    private record Window(long start, long end, boolean afterTheCrash) {
        static final Window AFTER_THE_CRASH = new Window(0, 0, true);

        Window(long start, long end) {
            this(start, end, false);
        }

        boolean answeredBeforeItBegan(ClientWrite write) {
            return afterTheCrash ? write.outcome() != ClientWrite.Outcome.NO_ANSWER : write.answeredBefore(start);
        }

        boolean sentBeforeItEnded(ClientWrite write) {
            return afterTheCrash || write.sentNanos() - end < 0;
        }

        String describe(AcknowledgementOrderChecker checker) {
            return afterTheCrash ? "after the crash"
                    : "read from " + checker.millis(start) + " to " + checker.millis(end) + ",";
        }
    }
}
