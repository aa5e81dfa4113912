package org.storeservice.codec;

import java.util.Objects;

/**
 * One request the codec answered, as a {@link RequestObserver} is told of it.
 *
 * @param kind its binding, operation and outcome
 * @param status the HTTP status answered
 * @param requestBodyBytes the body's length: the bytes the codec read, or the declared Content-Length if larger
 *     (a body refused on its length alone is not read)
 * @param durationNanos the time {@link StoreCodec#handle} took, from the request (whose body the adapter
 *     may have collected already) to the answer, the store's write included
 */
public record CompletedRequest(RequestKind kind, int status, long requestBodyBytes, long durationNanos) {
    /**
     * Checks that {@code kind} is given.
     *
     * @param kind its binding, operation and outcome
     * @param status the HTTP status answered
     * @param requestBodyBytes the body's length, read or declared
     * @param durationNanos the time the codec took
     */
    public CompletedRequest {
        Objects.requireNonNull(kind, "kind");
    }

    /** {@return the protocol that took the request} */
    public Binding binding() {
        return kind.binding();
    }

    /** {@return the operation, as {@link RequestKind#operation()} names it} */
    public String operation() {
        return kind.operation();
    }

    /** {@return how the request ended} */
    public Outcome outcome() {
        return kind.outcome();
    }
}
