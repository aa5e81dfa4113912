package org.storeservice.api;

import java.io.InputStream;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.api.storage.Storage;

/**
 * The standard {@link Store}: validates each write against {@link StoreLimits}, hands it to a
 * {@link Storage}, and turns every storage failure into {@link Status#ERROR}. Each {@code Error} leaves one log
 * line, rate-limited per reason: invalid input at INFO, a storage failure at WARN with its causes' messages (the
 * stack trace at DEBUG); successes log nothing (see {@link OutcomeLog}).
 *
 * <p>Rules where the wire contract is silent: a {@code null} or empty key gives {@code Error}; a
 * {@code null} value or content gives {@code Error}; an empty value or content is stored as empty; a key
 * or value over its limit gives {@code Error} and stores nothing; a key or text value that is not
 * well-formed UTF-16 (a lone surrogate, which UTF-8 cannot carry) gives {@code Error}, so no backend ever
 * stores it altered; a write to an existing key replaces it unless the {@link OverwritePolicy} is
 * {@link OverwritePolicy#REJECT}.
 *
 * <p>Immutable and thread-safe when its storage is. It does not own the storage: the host closes it.
 */
public final class DefaultStore implements Store {
    private static final Logger log = LoggerFactory.getLogger(DefaultStore.class);

    private final Storage storage;
    private final StoreLimits limits;
    private final OverwritePolicy overwritePolicy;
    private final OutcomeLog outcomes = new OutcomeLog(log, System::nanoTime);

    private DefaultStore(Builder builder) {
        this.storage = builder.storage;
        this.limits = builder.limits;
        this.overwritePolicy = builder.overwritePolicy;
    }

    /**
     * {@return a store over {@code storage} with default limits and {@link OverwritePolicy#REPLACE}}
     *
     * @param storage where the store keeps entries; the caller keeps owning it
     */
    public static DefaultStore of(Storage storage) {
        return builder(storage).build();
    }

    /**
     * {@return a builder of a store over {@code storage}, starting from the default limits and
     * {@link OverwritePolicy#REPLACE}}
     *
     * @param storage where the store keeps entries; the caller keeps owning it
     */
    public static Builder builder(Storage storage) {
        return new Builder(storage);
    }

    /** {@return the limits this store checks every write against} */
    public StoreLimits limits() {
        return limits;
    }

    /** {@return what a write to a key that holds a value does} */
    public OverwritePolicy overwritePolicy() {
        return overwritePolicy;
    }

    /** What its storage answers: the store's own checks only compute. */
    @Override
    public boolean writesNeverBlock() {
        return storage.writesNeverBlock();
    }

    @Override
    public Status writeString(String key, String value) {
        // This thread may block, so the storage may write right here.
        return writeStringAsync(key, value, Runnable::run).toCompletableFuture().join();
    }

    /** Checks the write here, then hands it to {@link Storage#putTextAsync}: a queued write leaves no thread waiting. */
    @Override
    public CompletionStage<Status> writeStringAsync(String key, String value, Executor blockingWork) {
        if (!isValidKey(key, "WriteString")) {
            return CompletableFuture.completedFuture(Status.ERROR);
        }
        String invalid = value == null ? "value is missing"
                : !Utf8.isWellFormed(value) ? "value has a lone surrogate"
                : Utf8.exceeds(value, limits.maxValueBytes()) ? "value over " + limits.maxValueBytes() + " UTF-8 bytes"
                : null;
        if (invalid != null) {
            outcomes.rejected("WriteString", key, invalid);
            return CompletableFuture.completedFuture(Status.ERROR);
        }
        return stageOf(() -> storage.putTextAsync(key, value, overwritePolicy, blockingWork)).handle((written, failure) -> {
            if (failure == null) {
                return written(written, key, "WriteString");
            }
            outcomes.failed("WriteString", key, unwrapped(failure), storage);
            return Status.ERROR;
        });
    }

    @Override
    public Status writeBytes(String key, InputStream content) {
        // This thread may block, so the storage may write right here.
        try {
            return writeBytesAsync(key, content, Runnable::run).toCompletableFuture().join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof ContentStreamException broken ? broken : e;
        }
    }

    /**
     * Checks the write here, then hands it to {@link Storage#putBytesAsync}: a queued write leaves no thread waiting.
     * The stage fails only with a {@link ContentStreamException}, when {@code content} itself failed.
     */
    @Override
    public CompletionStage<Status> writeBytesAsync(String key, InputStream content, Executor blockingWork) {
        if (!isValidKey(key, "WriteBytes")) {
            return CompletableFuture.completedFuture(Status.ERROR);
        }
        if (content == null) {
            outcomes.rejected("WriteBytes", key, "content is missing");
            return CompletableFuture.completedFuture(Status.ERROR);
        }
        LimitedContent limited = new LimitedContent(content, limits.maxValueBytes());
        return stageOf(() -> storage.putBytesAsync(key, limited, overwritePolicy, blockingWork)).handle((written, failure) -> {
            if (failure == null) {
                return written(written, key, "WriteBytes");
            }
            if (limited.sourceFailure() != null) {
                throw new ContentStreamException(limited.sourceFailure());
            }
            if (limited.limitExceeded()) {
                outcomes.rejected("WriteBytes", key, "content over " + limits.maxValueBytes() + " bytes");
            } else {
                outcomes.failed("WriteBytes", key, unwrapped(failure), storage);
            }
            return Status.ERROR;
        });
    }

    /** The storage's stage, or a failed one for a backend that throws instead of failing its stage. */
    private static CompletionStage<Boolean> stageOf(Supplier<CompletionStage<Boolean>> write) {
        try {
            return write.get();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** What failed a storage's stage, without the {@link CompletionException} a dependent stage sees around it. */
    private static Throwable unwrapped(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    private boolean isValidKey(String key, String operation) {
        String invalid = key == null ? "key is missing"
                : key.isEmpty() ? "key is empty"
                : key.length() > limits.maxKeyLength() ? "key over " + limits.maxKeyLength() + " chars"
                : !Utf8.isWellFormed(key) ? "key has a lone surrogate"
                : null;
        if (invalid != null) {
            outcomes.rejected(operation, key, invalid);
            return false;
        }
        return true;
    }

    private Status written(boolean stored, String key, String operation) {
        if (!stored) {
            // An Error like any other: the operator sees why (INFO, rate-limited with the rest).
            outcomes.rejected(operation, key, "key exists and overwrites are rejected");
            return Status.ERROR;
        }
        return Status.SUCCESS;
    }

    @Override
    public String toString() {
        return "DefaultStore{storage=" + storage + ", " + limits + ", overwritePolicy=" + overwritePolicy + '}';
    }

    /** Builds a {@link DefaultStore}. Not thread-safe. */
    public static final class Builder {
        private final Storage storage;
        private StoreLimits limits = StoreLimits.defaults();
        private OverwritePolicy overwritePolicy = OverwritePolicy.REPLACE;

        private Builder(Storage storage) {
            this.storage = Objects.requireNonNull(storage, "storage");
        }

        /**
         * Sets the limits on keys and values; default {@link StoreLimits#defaults()}.
         *
         * @param limits the limits
         * @return this builder
         */
        public Builder limits(StoreLimits limits) {
            this.limits = Objects.requireNonNull(limits, "limits");
            return this;
        }

        /**
         * Sets what a write to a key that holds a value does; default {@link OverwritePolicy#REPLACE}.
         *
         * @param overwritePolicy replace the value, or reject the write
         * @return this builder
         */
        public Builder overwritePolicy(OverwritePolicy overwritePolicy) {
            this.overwritePolicy = Objects.requireNonNull(overwritePolicy, "overwritePolicy");
            return this;
        }

        /** {@return the store} */
        public DefaultStore build() {
            return new DefaultStore(this);
        }
    }
}
