package org.storeservice.api.storage;

import java.io.IOException;

/** A backend could not do what was asked: disk full, database down, constraint, time-out, closed. */
public class StorageException extends IOException {
    private static final long serialVersionUID = 1L;

    /**
     * A failure the backend found itself.
     *
     * @param message what failed, for logs; it names no client data
     */
    public StorageException(String message) {
        super(message);
    }

    /**
     * A failure of what the backend uses (a driver, the file system).
     *
     * @param message what failed, for logs; it names no client data
     * @param cause the backend's own failure
     */
    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
