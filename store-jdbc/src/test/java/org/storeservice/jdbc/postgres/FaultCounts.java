package org.storeservice.jdbc.postgres;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.storeservice.jdbc.FaultProxy;
import org.storeservice.jdbc.FaultProxy.Fault;
import org.storeservice.jdbc.FaultProxy.LookupAnswer;
import org.storeservice.jdbc.FaultProxy.Statement;

/**
 * What fault schedules made happen, counted so that a run can show its scenarios happened: the faults armed and fired
 * per kind and on which statement, the commits in doubt (each batch the writer looked up: it looks up only a commit
 * whose answer was lost), how each lookup ended, the writes that ran out their time-out in doubt, and the kinds of
 * writes sent. Counts of several schedules {@link #add add up}.
 */
final class FaultCounts {
    /** How a batch's lookups ended, as the proxy saw the server answer them. */
    enum Lookup { COMMITTED, COMMITTED_NOT_WRITTEN, NOT_COMMITTED, FAILED_THEN_RESOLVED, NEVER_RESOLVED }

    private final Map<Fault, int[]> faults = new EnumMap<>(Fault.class); // armed, fired
    private final Map<Statement, Integer> firedOn = new EnumMap<>(Statement.class);
    private final Map<String, List<LookupAnswer>> lookups = new LinkedHashMap<>();
    private final Map<String, Integer> writes = new TreeMap<>();
    private final List<FaultProxy.Armed> armed = new ArrayList<>();
    private final AtomicInteger unknownIds = new AtomicInteger();
    private int expiredStored;
    private int expiredNotStored;

    synchronized FaultProxy.Armed armed(FaultProxy.Armed fault) {
        armed.add(fault);
        return fault;
    }

    /** A lookup step of batch {@code id} as the proxy saw it answered. */
    synchronized void lookup(String id, LookupAnswer answer) {
        String key = id == null ? "unknown-" + unknownIds.incrementAndGet() : id;
        lookups.computeIfAbsent(key, k -> new ArrayList<>()).add(answer);
    }

    /** A write of {@code what} (for example "A REJECT", "B DELETE", "A writeAll group") was sent. */
    synchronized void wrote(String what) {
        writes.merge(what, 1, Integer::sum);
    }

    /** The schedule is over: the faults armed are counted as fired or not, with the expiries its checker found. */
    synchronized void finish(HistoryChecker.Result result) {
        for (FaultProxy.Armed fault : armed) {
            int[] counts = faults.computeIfAbsent(fault.fault(), f -> new int[2]);
            counts[0]++;
            if (fault.fired()) {
                counts[1]++;
                firedOn.merge(fault.firedOn(), 1, Integer::sum);
            }
        }
        armed.clear();
        expiredStored += result.inDoubtTookEffect();
        expiredNotStored += result.inDoubtDidNot();
    }

    synchronized void add(FaultCounts other) {
        synchronized (other) {
            other.faults.forEach((fault, counts) -> {
                int[] mine = faults.computeIfAbsent(fault, f -> new int[2]);
                mine[0] += counts[0];
                mine[1] += counts[1];
            });
            other.firedOn.forEach((statement, n) -> firedOn.merge(statement, n, Integer::sum));
            other.lookups.forEach((id, answers) -> lookups.computeIfAbsent(id, k -> new ArrayList<>()).addAll(answers));
            other.writes.forEach((what, n) -> writes.merge(what, n, Integer::sum));
            expiredStored += other.expiredStored;
            expiredNotStored += other.expiredNotStored;
        }
    }

    synchronized int fired() {
        return faults.values().stream().mapToInt(counts -> counts[1]).sum();
    }

    synchronized int fired(Fault fault) {
        return faults.getOrDefault(fault, new int[2])[1];
    }

    synchronized int firedOn(Statement statement) {
        return firedOn.getOrDefault(statement, 0);
    }

    /** Batches looked up: commits whose answer was lost. */
    synchronized int commitsInDoubt() {
        return lookups.size();
    }

    synchronized int expiredStored() {
        return expiredStored;
    }

    synchronized int expiredNotStored() {
        return expiredNotStored;
    }

    synchronized int writes(String what) {
        return writes.getOrDefault(what, 0);
    }

    /** The batches whose lookups ended so; one batch may count as failed-then-resolved and as how it resolved. */
    synchronized Map<Lookup, Integer> lookups() {
        Map<Lookup, Integer> ends = new EnumMap<>(Lookup.class);
        for (Lookup end : Lookup.values()) {
            ends.put(end, 0);
        }
        for (List<LookupAnswer> answers : lookups.values()) {
            boolean failed = false;
            Lookup end = Lookup.NEVER_RESOLVED;
            for (LookupAnswer answer : answers) {
                switch (answer) {
                    case FAILED -> failed = true;
                    case FENCED, NOT_COMMITTED -> end = Lookup.NOT_COMMITTED;
                    case COMMITTED -> end = Lookup.COMMITTED;
                    case COMMITTED_NOT_WRITTEN -> end = Lookup.COMMITTED_NOT_WRITTEN;
                    case ROW_FOUND -> { }
                }
            }
            ends.merge(end, 1, Integer::sum);
            if (failed && end != Lookup.NEVER_RESOLVED) {
                ends.merge(Lookup.FAILED_THEN_RESOLVED, 1, Integer::sum);
            }
        }
        return ends;
    }

    /** Every count, on a few lines. */
    @Override
    public synchronized String toString() {
        StringBuilder text = new StringBuilder("  faults armed/fired:");
        faults.forEach((fault, counts) -> text.append(' ').append(fault).append(' ').append(counts[0]).append('/')
                .append(counts[1]));
        text.append("\n  fired on: ").append(firedOn);
        text.append("\n  commits in doubt: ").append(lookups.size()).append(", lookups ended: ").append(lookups());
        text.append("\n  expired in doubt: ").append(expiredStored).append(" stored, ").append(expiredNotStored)
                .append(" not");
        text.append("\n  writes sent: ").append(writes);
        return text.toString();
    }
}
