package org.storeservice.api.storage;

import java.io.IOException;

/** Receives entries from {@link Storage#scan(String, EntryVisitor)}; may throw to stop the scan. */
@FunctionalInterface
public interface EntryVisitor {
    /**
     * Receives one entry.
     *
     * @param entry the entry, in the scan's key order
     * @throws IOException to stop the scan, which then throws it
     */
    void visit(StoredEntry entry) throws IOException;
}
