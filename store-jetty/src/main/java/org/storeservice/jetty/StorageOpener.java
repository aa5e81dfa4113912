package org.storeservice.jetty;

import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;

/**
 * Opens a storage from its URI on a thread of its own while {@link StoreServer#start()} builds Jetty's server:
 * opening a storage (loading a JDBC driver, a native library, a file) and building the server are each about a
 * fifth of a start, and neither needs the other, so they overlap (BENCHMARKS.md).
 */
final class StorageOpener {
    private final CompletableFuture<Storage> opening = new CompletableFuture<>();

    private StorageOpener() {
    }

    /** Starts opening {@code storageUri} with {@link Storages#open(String)}; returns once the opener runs. */
    static StorageOpener start(String storageUri) {
        StorageOpener opener = new StorageOpener();
        Thread thread = new Thread(() -> {
            try {
                opener.opening.complete(Storages.open(storageUri));
            } catch (Throwable t) {
                opener.opening.completeExceptionally(t);
            }
        }, "store-open-storage");
        thread.setDaemon(true);
        thread.start();
        return opener;
    }

    /** The opened storage, or what opening it threw. Waits even if interrupted: the opener must not be left behind. */
    Storage await() throws IOException {
        try {
            return opening.join(); // waits even if interrupted, and keeps the interrupt
        } catch (CompletionException e) {
            // Thrown again here, so that its stack shows the caller of start() too, not only the opener.
            Throwable cause = e.getCause();
            if (cause instanceof IOException) {
                throw new IOException(cause.getMessage(), cause);
            }
            if (cause instanceof IllegalArgumentException) {
                throw new IllegalArgumentException(cause.getMessage(), cause);
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            if (cause instanceof Error error) {
                throw error;
            }
            throw new IOException("Could not open storage: " + cause, cause);
        }
    }

    /** After a failed start: the storage if it opened all the same (to be closed), else null. */
    Storage openedAnyway() {
        try {
            return await();
        } catch (IOException | RuntimeException | Error e) {
            return null; // nothing was opened; the start's own failure is the one to report
        }
    }
}
