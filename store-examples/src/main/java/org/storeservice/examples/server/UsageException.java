package org.storeservice.examples.server;

/** The command line is wrong; the message says how, in one line, for the user. */
final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }
}
