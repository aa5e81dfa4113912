package org.storeservice.jdbc.postgres;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.storeservice.jdbc.internal.WriteQueue.Pending;
import org.storeservice.jdbc.internal.WriteRequest;

/**
 * A batch whose commit was in doubt, exactly as it was committed: its id and its writes in order, which is what the
 * indexes of its commit row refer to. Some of its writes may have been answered meanwhile (they waited the failover
 * time-out); the batch itself never changes, so that its decision is read against the batch it describes.
 */
record InDoubtBatch(UUID id, List<Pending> committed) {
    InDoubtBatch {
        committed = List.copyOf(committed);
    }

    /** The groups of writes, as {@link PostgresBatch#commit} was given them. */
    List<List<WriteRequest>> groups() {
        List<List<WriteRequest>> groups = new ArrayList<>(committed.size());
        for (Pending pending : committed) {
            groups.add(pending.requests());
        }
        return groups;
    }

    /**
     * Answers, as {@code decision} (committed) says, every write of the batch still waiting; one already answered
     * (an {@code Error} when its failover time-out ran out) keeps its answer.
     */
    void answer(CommitRows.Decision decision) {
        List<Boolean> results = new BatchWrites(groups()).results(decision.notWritten());
        for (int i = 0; i < committed.size(); i++) {
            committed.get(i).result().complete(results.get(i));
        }
    }
}
