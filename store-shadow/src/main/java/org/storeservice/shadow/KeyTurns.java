package org.storeservice.shadow;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

/**
 * One write of a key at a time towards the primary. A write takes its key's turn before it is sent, and gives it back
 * once the primary's answer is in and its copy is queued for the shadow; a second write of the same key meanwhile
 * waits for it. So the primary applies the writes of one key in the order the proxy sends them, which is the order
 * their answers come back and their copies are queued: the shadow, which takes one key's copies in queue order too,
 * ends with the same value. Without it, two concurrent writes of one key could be applied in one order and answered
 * in the other. Writes of different keys never wait for each other. Thread-safe.
 */
final class KeyTurns {
    /** The most writes of one key waiting for its turn; a write beyond it is not made to wait (see {@link #take}). */
    static final int MAX_WAITING = 64;

    /** Each key whose turn is taken, with the writes waiting for it in arrival order. */
    private final Map<String, Deque<Runnable>> taken = new HashMap<>();

    /**
     * Runs {@code go} once {@code key}'s turn is this caller's: now, on this thread, or on the thread that gives it back;
     * unless {@link #MAX_WAITING} writes of the key wait already, so that one client holding a key cannot make the
     * others pile up behind it.
     *
     * @return {@code false}, without running {@code go}, if too many writes of the key wait: the caller sends its write
     *     out of turn and does not mirror it (its key listed), and gives no turn back
     */
    boolean take(String key, Runnable go) {
        synchronized (this) {
            Deque<Runnable> waiting = taken.get(key);
            if (waiting != null) {
                if (waiting.size() >= MAX_WAITING) {
                    return false;
                }
                waiting.addLast(go);
                return true;
            }
            taken.put(key, new ArrayDeque<>(2));
        }
        go.run();
        return true;
    }

    /** Gives {@code key}'s turn to the next waiting write, if any, which then runs on this thread. */
    void giveBack(String key) {
        Runnable next;
        synchronized (this) {
            Deque<Runnable> waiting = taken.get(key);
            if (waiting == null) {
                throw new IllegalStateException("no turn taken for this key");
            }
            next = waiting.pollFirst();
            if (next == null) {
                taken.remove(key);
            }
        }
        if (next != null) {
            next.run();
        }
    }

    /** The keys whose turn is taken now. */
    synchronized int taken() {
        return taken.size();
    }
}
