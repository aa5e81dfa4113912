package org.storeservice.codec.fuzz;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryVisitor;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StoredEntry;

/**
 * A {@link MemoryStorage} that records the key of every write that stored a value, so that a fuzz run can ask
 * after each request what it stored, and then forget it (memory stays flat however long the fuzzer runs). It
 * also records a RuntimeException thrown by the codec's content stream while the storage reads it: the store
 * turns that into an {@code Error} result, which would hide a decoder bug from the wire. Single-threaded, as a
 * fuzz target is.
 */
final class RecordingStorage implements Storage {
    private final MemoryStorage delegate = new MemoryStorage();
    private final List<String> stored = new ArrayList<>();
    private final List<RuntimeException> contentBugs = new ArrayList<>();

    @Override
    public boolean putText(String key, String value, OverwritePolicy policy) throws IOException {
        return recorded(key, delegate.putText(key, value, policy));
    }

    @Override
    public boolean putBytes(String key, InputStream content, OverwritePolicy policy) throws IOException {
        return recorded(key, delegate.putBytes(key, new ObservedContent(content), policy));
    }

    /** The RuntimeExceptions the codec's content streams threw since the last call. */
    List<RuntimeException> takeContentBugs() {
        List<RuntimeException> bugs = List.copyOf(contentBugs);
        contentBugs.clear();
        return bugs;
    }

    /** The keys stored since the last call, in order; removes their entries. */
    List<String> takeStoredKeys() throws IOException {
        List<String> keys = List.copyOf(stored);
        stored.clear();
        for (String key : keys) {
            delegate.delete(key);
        }
        return keys;
    }

    @Override
    public Optional<StoredEntry> get(String key) throws IOException {
        return delegate.get(key);
    }

    @Override
    public void scan(String keyPrefix, EntryVisitor visitor) throws IOException {
        delegate.scan(keyPrefix, visitor);
    }

    @Override
    public boolean delete(String key) throws IOException {
        return delegate.delete(key);
    }

    @Override
    public boolean writesNeverBlock() {
        return delegate.writesNeverBlock();
    }

    @Override
    public void close() {
        delegate.close();
    }

    private boolean recorded(String key, boolean wasStored) {
        if (wasStored) {
            stored.add(key);
        }
        return wasStored;
    }

    /** Passes the content on, noting any RuntimeException it throws (an IOException is a legitimate bad input). */
    private final class ObservedContent extends FilterInputStream {
        ObservedContent(InputStream content) {
            super(content);
        }

        @Override
        public int read() throws IOException {
            try {
                return super.read();
            } catch (RuntimeException e) {
                throw noted(e);
            }
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            try {
                return super.read(buffer, offset, length);
            } catch (RuntimeException e) {
                throw noted(e);
            }
        }

        @Override
        public void close() throws IOException {
            try {
                super.close();
            } catch (RuntimeException e) {
                throw noted(e);
            }
        }

        private RuntimeException noted(RuntimeException e) {
            contentBugs.add(e);
            return e;
        }
    }
}
