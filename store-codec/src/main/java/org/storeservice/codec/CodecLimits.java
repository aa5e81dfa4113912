package org.storeservice.codec;

/**
 * Every limit the codec enforces on a request, in one place. Each default is named, and says which
 * attack it stops. A request over a limit gets the ASMX-shaped error promptly, and nothing is stored.
 *
 * <p>Immutable and thread-safe; build one with {@link #builder()}.
 */
public final class CodecLimits {

    /**
     * Default maximum request body, 4 MiB (4,194,304 bytes): ASMX's default {@code maxRequestLength}.
     * Stops a client from exhausting memory or disk with one huge request.
     */
    public static final long DEFAULT_MAX_REQUEST_BYTES = 4L * 1024 * 1024;

    private static final CodecLimits DEFAULTS = builder().build();

    private final long maxRequestBytes;

    private CodecLimits(Builder builder) {
        this.maxRequestBytes = builder.maxRequestBytes;
    }

    public static CodecLimits defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Largest accepted request body, in bytes. */
    public long maxRequestBytes() {
        return maxRequestBytes;
    }

    /** Builds {@link CodecLimits}; starts from the defaults. Not thread-safe. */
    public static final class Builder {
        private long maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;

        private Builder() {
        }

        /** @see #DEFAULT_MAX_REQUEST_BYTES */
        public Builder maxRequestBytes(long maxRequestBytes) {
            if (maxRequestBytes < 0) {
                throw new IllegalArgumentException("maxRequestBytes must not be negative: " + maxRequestBytes);
            }
            this.maxRequestBytes = maxRequestBytes;
            return this;
        }

        public CodecLimits build() {
            return new CodecLimits(this);
        }
    }
}
