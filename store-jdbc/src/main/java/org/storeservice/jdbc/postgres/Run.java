package org.storeservice.jdbc.postgres;

import java.util.ArrayList;
import java.util.List;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.jdbc.internal.SpooledContent;
import org.storeservice.jdbc.internal.WriteRequest;

/**
 * Consecutive writes of a batch of one kind, by their indexes into the batch, in order: each run is one statement
 * (over arrays), except that a value too large for the arrays is a run of its own.
 */
record Run(Kind kind, List<Integer> indexes) {
    /** Byte values up to this size go in the arrays; larger ones have a statement of their own. */
    static final int ARRAY_VALUE_BYTES = SpooledContent.MEMORY_BYTES;

    enum Kind { UPSERT, INSERT_IF_ABSENT, DELETE, SINGLE }

    /** The runs of {@code requests}, in order. */
    static List<Run> of(List<WriteRequest> requests) {
        List<Run> runs = new ArrayList<>();
        Run current = null;
        for (int i = 0; i < requests.size(); i++) {
            Kind kind = kindOf(requests.get(i));
            if (current == null || current.kind() != kind || kind == Kind.SINGLE) {
                current = new Run(kind, new ArrayList<>());
                runs.add(current);
            }
            current.indexes().add(i);
        }
        return runs;
    }

    /** Whether {@code request} carries a value too large for the arrays: it has a statement of its own. */
    static boolean large(WriteRequest request) {
        SpooledContent bytes = request.bytes();
        return bytes != null && !(bytes.inMemory() && bytes.length() <= ARRAY_VALUE_BYTES);
    }

    private static Kind kindOf(WriteRequest request) {
        if (request.deletes()) {
            return Kind.DELETE;
        }
        if (large(request)) {
            return Kind.SINGLE;
        }
        return request.policy() == OverwritePolicy.REJECT ? Kind.INSERT_IF_ABSENT : Kind.UPSERT;
    }
}
