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
    public CompletedRequest {
        Objects.requireNonNull(kind, "kind");
    }

    public Binding binding() {
        return kind.binding();
    }

    public String operation() {
        return kind.operation();
    }

    public Outcome outcome() {
        return kind.outcome();
    }
}
