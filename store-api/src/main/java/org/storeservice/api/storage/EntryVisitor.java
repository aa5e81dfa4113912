package org.storeservice.api.storage;

import java.io.IOException;

/** Receives entries from {@link Storage#scan(String, EntryVisitor)}; may throw to stop the scan. */
@FunctionalInterface
public interface EntryVisitor {
    void visit(StoredEntry entry) throws IOException;
}
