package org.storeservice.codec.wire;

import java.util.concurrent.CompletionException;

/** What failed a stage of the store's asynchronous write: the one place that unwraps it. */
public final class Failures {
    private Failures() {
    }

    /**
     * The exception {@code failure} stands for, unwrapped from the {@link CompletionException} a dependent stage
     * sees. An {@link Error} is thrown instead: it is no answer of the store's, and the codec's caller answers 500.
     */
    public static Exception cause(Throwable failure) {
        Throwable cause = failure instanceof CompletionException && failure.getCause() != null
                ? failure.getCause() : failure;
        if (cause instanceof Error error) {
            throw error;
        }
        return (Exception) cause;
    }
}
