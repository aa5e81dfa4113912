package org.storeservice.jdbc.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Batch ids: version 7 UUIDs, unique, and in the order they were made from one millisecond to the next. */
class CommitIdTest {
    @Test
    void idsAreVersion7UniqueAndGrowWithTime() throws Exception {
        Set<UUID> seen = new HashSet<>();
        for (int i = 0; i < 100_000; i++) {
            UUID id = PostgresWriter.commitId();
            assertEquals(7, id.version());
            assertEquals(2, id.variant());
            assertTrue(seen.add(id), "a repeated id");
        }
        UUID earlier = PostgresWriter.commitId();
        Thread.sleep(5);
        UUID later = PostgresWriter.commitId();
        // PostgreSQL orders uuid values by their bytes, most significant first: the time comes first.
        assertTrue(Long.compareUnsigned(earlier.getMostSignificantBits(), later.getMostSignificantBits()) < 0);
    }
}
