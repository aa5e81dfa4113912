package org.storeservice.jdbc.internal;

import java.sql.SQLException;

/**
 * A write failed on this side before the database saw it (its spooled value could not be read): the database and the
 * connection are fine, so it is neither waited out nor in doubt; the write fails alone.
 */
public final class LocalWriteFailure extends SQLException {
    private static final long serialVersionUID = 1L;

    public LocalWriteFailure(String message, Throwable cause) {
        super(message, (String) null, cause);
    }
}
