package org.storeservice.api.storage;

import java.io.IOException;

/** A backend could not do what was asked: disk full, database down, constraint, time-out, closed. */
public class StorageException extends IOException {
    private static final long serialVersionUID = 1L;

    public StorageException(String message) {
        super(message);
    }

    public StorageException(String message, Throwable cause) {
        super(message, cause);
    }
}
