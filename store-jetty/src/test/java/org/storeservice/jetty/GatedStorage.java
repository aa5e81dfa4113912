package org.storeservice.jetty;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import org.storeservice.api.OverwritePolicy;

/** Memory storage whose text writes wait at a gate, so a test can hold a request in flight. */
final class GatedStorage extends ForwardingStorage {
    final CountDownLatch entered = new CountDownLatch(1);
    final CountDownLatch open = new CountDownLatch(1);
    private final boolean writesNeverBlock;

    /** @param writesNeverBlock what it tells the adapter, so that either of its paths can be held */
    GatedStorage(boolean writesNeverBlock) {
        this.writesNeverBlock = writesNeverBlock;
    }

    @Override
    public boolean writesNeverBlock() {
        return writesNeverBlock;
    }

    @Override
    public boolean putText(String key, String value, OverwritePolicy policy) throws IOException {
        entered.countDown();
        try {
            open.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted before writing", e);
        }
        return delegate.putText(key, value, policy);
    }
}
