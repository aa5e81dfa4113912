package org.storeservice.jetty;

import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryVisitor;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StoredEntry;

/** A memory storage to subclass: a test double overrides only the call it watches or holds. */
abstract class ForwardingStorage implements Storage {
    final MemoryStorage delegate = new MemoryStorage();

    @Override
    public boolean putText(String key, String value, OverwritePolicy policy) throws IOException {
        return delegate.putText(key, value, policy);
    }

    @Override
    public boolean putBytes(String key, InputStream content, OverwritePolicy policy) throws IOException {
        return delegate.putBytes(key, content, policy);
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
    public void close() {
        delegate.close();
    }
}
