package org.storeservice.api;

/**
 * Limits a {@link Store} enforces on every write, whatever the wire binding. A write over a limit
 * gives {@link Status#ERROR} and stores nothing.
 *
 * <p>Immutable and thread-safe; build one with {@link #builder()}.
 */
public final class StoreLimits {

    /**
     * Default maximum key length, 512 UTF-16 chars. Stops keys that bloat a backend's primary-key index;
     * 512 chars are at most 2,048 UTF-8 bytes, which fits the 2,704-byte B-tree entry limit of PostgreSQL.
     */
    public static final int DEFAULT_MAX_KEY_LENGTH = 512;

    /**
     * Default maximum value size, 4 MiB (4,194,304 bytes), counted as UTF-8 bytes for text and raw
     * bytes for content. Stops one write from filling the store's disk or memory; equal to ASMX's
     * default request limit, so every value a default ASMX server accepted is accepted here.
     */
    public static final long DEFAULT_MAX_VALUE_BYTES = 4L * 1024 * 1024;

    private static final StoreLimits DEFAULTS = builder().build();

    private final int maxKeyLength;
    private final long maxValueBytes;

    private StoreLimits(Builder builder) {
        this.maxKeyLength = builder.maxKeyLength;
        this.maxValueBytes = builder.maxValueBytes;
    }

    /** {@return the default limits} */
    public static StoreLimits defaults() {
        return DEFAULTS;
    }

    /** {@return a builder starting from the default limits} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder starting from these limits} */
    public Builder toBuilder() {
        return new Builder().maxKeyLength(maxKeyLength).maxValueBytes(maxValueBytes);
    }

    /** {@return the longest accepted key, in UTF-16 chars ({@link String#length()})} */
    public int maxKeyLength() {
        return maxKeyLength;
    }

    /** {@return the largest accepted value, in bytes: UTF-8 bytes for text, raw bytes for content} */
    public long maxValueBytes() {
        return maxValueBytes;
    }

    @Override
    public String toString() {
        return "StoreLimits{maxKeyLength=" + maxKeyLength + ", maxValueBytes=" + maxValueBytes + '}';
    }

    /** Builds {@link StoreLimits}; starts from the defaults. Not thread-safe. */
    public static final class Builder {
        private int maxKeyLength = DEFAULT_MAX_KEY_LENGTH;
        private long maxValueBytes = DEFAULT_MAX_VALUE_BYTES;

        private Builder() {
        }

        /**
         * Sets the longest accepted key, in UTF-16 chars.
         *
         * @param maxKeyLength at least 1; default {@value #DEFAULT_MAX_KEY_LENGTH}
         * @return this builder
         */
        public Builder maxKeyLength(int maxKeyLength) {
            if (maxKeyLength < 1) {
                throw new IllegalArgumentException("maxKeyLength must be at least 1: " + maxKeyLength);
            }
            this.maxKeyLength = maxKeyLength;
            return this;
        }

        /**
         * Sets the largest accepted value, in bytes.
         *
         * @param maxValueBytes at least 0; default {@value #DEFAULT_MAX_VALUE_BYTES}
         * @return this builder
         */
        public Builder maxValueBytes(long maxValueBytes) {
            if (maxValueBytes < 0) {
                throw new IllegalArgumentException("maxValueBytes must not be negative: " + maxValueBytes);
            }
            this.maxValueBytes = maxValueBytes;
            return this;
        }

        /** {@return the limits} */
        public StoreLimits build() {
            return new StoreLimits(this);
        }
    }
}
