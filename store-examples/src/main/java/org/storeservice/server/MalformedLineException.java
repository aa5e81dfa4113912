package org.storeservice.server;

import java.io.IOException;

/** A line of an import that is not an entry in the {@linkplain EntryLines export format}; says which and why. */
final class MalformedLineException extends IOException {
    private static final long serialVersionUID = 1L;

    MalformedLineException(long lineNumber, String reason) {
        super("line " + lineNumber + ": " + reason);
    }
}
