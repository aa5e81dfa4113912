package org.storeservice.jdbc.postgres;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.storeservice.jdbc.internal.WriteRequest;

/**
 * A batch's groups of writes, one after another, in the order the commit row's indexes refer to, and the group of
 * each. A group (one queued item: a single write, or the writes of one {@code writeAll}) is answered written only if
 * every one of its writes wrote.
 */
final class BatchWrites {
    private final List<WriteRequest> requests = new ArrayList<>();
    private final List<Integer> groupOf = new ArrayList<>();
    private final int groups;

    BatchWrites(List<List<WriteRequest>> groups) {
        this.groups = groups.size();
        for (int g = 0; g < groups.size(); g++) {
            for (WriteRequest request : groups.get(g)) {
                requests.add(request);
                groupOf.add(g);
            }
        }
    }

    /** Every write, in order. */
    List<WriteRequest> requests() {
        return requests;
    }

    /** For each group, whether every one of its writes wrote, given whether each write did. */
    List<Boolean> results(boolean[] written) {
        List<Boolean> results = new ArrayList<>(Collections.nCopies(groups, true));
        for (int i = 0; i < written.length; i++) {
            if (!written[i]) {
                results.set(groupOf.get(i), false);
            }
        }
        return results;
    }

    /** For each group, whether every one of its writes wrote, given the indexes of those that did not. */
    List<Boolean> results(Set<Integer> notWritten) {
        boolean[] written = new boolean[requests.size()];
        java.util.Arrays.fill(written, true);
        for (int index : notWritten) {
            written[index] = false;
        }
        return results(written);
    }
}
