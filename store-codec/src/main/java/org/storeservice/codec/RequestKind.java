package org.storeservice.codec;

import java.util.Objects;

/**
 * What a request asked for and how it ended: its binding, its operation and its outcome, each from a fixed set
 * (never text a client sent), so that metrics tagged with them stay bounded.
 *
 * @param binding the protocol that took it
 * @param operation {@code WriteString} or {@code WriteBytes} for a write; {@code wsdl}, {@code disco} or
 *     {@code help} for a metadata page; {@code none} when no operation was named or recognized
 * @param outcome how it ended
 */
public record RequestKind(Binding binding, String operation, Outcome outcome) {
    /** The operation of a request that named none the service has. */
    public static final String NO_OPERATION = "none";

    /**
     * Checks that every component is given.
     *
     * @param binding the protocol that took it
     * @param operation the operation, or {@link #NO_OPERATION}
     * @param outcome how it ended
     */
    public RequestKind {
        Objects.requireNonNull(binding, "binding");
        Objects.requireNonNull(operation, "operation");
        Objects.requireNonNull(outcome, "outcome");
    }
}
