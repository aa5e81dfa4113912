package org.storeservice.codec;

/**
 * Every limit the codec enforces on a request, in one place. Each default is named, and says which
 * attack it stops. A request over a limit gets the ASMX-shaped error promptly, and nothing is stored.
 *
 * <p>Immutable and thread-safe; build one with {@link #builder()} or {@link #toBuilder()}.
 *
 * <p>The one place the limits live: every limit, its default, the attack it stops and its builder method.
 */
public final class CodecLimits {

    /**
     * Default maximum request body, 4 MiB (4,194,304 bytes): ASMX's default {@code maxRequestLength}.
     * Stops a client from exhausting memory or disk with one huge request. Checked against Content-Length
     * before reading, and counted on the raw body while reading: the codec reads at most this + 1 bytes of
     * {@link CodecRequest#body()}, whatever the framing, and answers ASMX's "Maximum request length exceeded."
     * fault or error; a server adapter needs no limit of its own.
     */
    public static final long DEFAULT_MAX_REQUEST_BYTES = 4L * 1024 * 1024;

    /**
     * Default maximum element nesting depth of a SOAP request, 64 (a call needs 4). Stops stack and
     * CPU exhaustion by deeply nested elements (a 10,000-deep document is rejected at depth 65).
     */
    public static final int DEFAULT_MAX_ELEMENT_DEPTH = 64;

    /**
     * Default maximum attributes on one element, 64 (namespace declarations not counted). Stops
     * hash-collision and quadratic duplicate-check attacks with thousands of attributes.
     */
    public static final int DEFAULT_MAX_ATTRIBUTES_PER_ELEMENT = 64;

    /**
     * Default maximum length of one attribute value, 64 Ki chars. Stops a huge attribute value from being
     * built in memory (attribute values are never streamed).
     */
    public static final int DEFAULT_MAX_ATTRIBUTE_VALUE_LENGTH = 64 * 1024;

    /**
     * Default maximum length of one text parameter ({@code key}, {@code value}), comment or processing
     * instruction in a SOAP request, 4 Mi chars (as many as the default request size). Stops a huge string from
     * being built in memory when {@link #maxRequestBytes()} is raised for large {@code WriteBytes} content
     * (a comment or processing instruction is parsed whole once, within the request size, then refused).
     * Does not apply to {@code content}, which is streamed.
     */
    public static final int DEFAULT_MAX_TEXT_LENGTH = 4 * 1024 * 1024;

    /**
     * Default maximum number of elements in a SOAP request, 10,000 (a call needs 5). Stops CPU and
     * allocation exhaustion by a flood of tiny elements, e.g. in headers or ignored parameters.
     */
    public static final int DEFAULT_MAX_ELEMENT_COUNT = 10_000;

    /**
     * Default maximum number of distinct parameter names in an HTTP GET query or POST form, 1,000: ASP.NET's
     * {@code aspnet:MaxHttpCollectionKeys}. Stops hash-flooding and memory exhaustion by many parameters.
     * Repeated values of one name ({@code content=1&content=2}) count once; the request size bounds them.
     */
    public static final int DEFAULT_MAX_PARAMETER_NAMES = 1_000;

    /**
     * Default in-memory part of a spooled {@code content}, 96 KiB. Only when {@code <content>} precedes
     * {@code <key>} must the codec keep the content until the key is known; beyond this many bytes it goes
     * to a temporary file (deleted afterwards), so out-of-order requests cannot exhaust the heap. A body of up to four
     * thirds of it (128 KiB: a 64 KiB WriteBytes) can be answered on a thread that must not block, since its content
     * never reaches the file.
     */
    public static final int DEFAULT_SPOOL_MEMORY_BYTES = 96 * 1024;

    /**
     * Default heap one request body may hold while it arrives, 8 MiB (a body of the default size limit fits);
     * the rest goes to a temporary file (deleted after the request). The shared
     * {@linkplain #DEFAULT_BODY_MEMORY_BUDGET_BYTES budget} is what bounds the heap: once it is taken, every
     * further body goes to a file. A smaller value sends large bodies to disk even when the heap has room, which
     * halved 4 MiB WriteBytes throughput in the same-run A/B (BENCHMARKS.md).
     */
    public static final int DEFAULT_BODY_MEMORY_BYTES = 8 * 1024 * 1024;

    /**
     * Default heap all request bodies in flight may hold together: a quarter of the JVM's maximum heap
     * ({@code Runtime.maxMemory() / 4}, 24 MiB at {@code -Xmx96m}). Stops many concurrent uploads (or many
     * slow ones) from exhausting the heap: past it every body goes to a temporary file. A fraction rather
     * than a fixed size, because any fixed size is too much for a small heap and needlessly little for a
     * large one; three quarters stay for decoding, the store and the server's own buffers.
     */
    public static final long DEFAULT_BODY_MEMORY_BUDGET_BYTES = Runtime.getRuntime().maxMemory() / 4;

    /**
     * Default heap that WriteString values decoded from large bodies may hold together, a quarter of the JVM's
     * maximum heap (24 MiB at {@code -Xmx96m}). A text value is a string in memory until the store answered it (for
     * as long as the database is away, on a store that rides out failovers): without this, many concurrent large
     * WriteStrings exhaust the heap. Past it, a request waits before its body is decoded (see {@link TextMemory}).
     */
    public static final long DEFAULT_TEXT_MEMORY_BYTES = Runtime.getRuntime().maxMemory() / 4;

    /**
     * Default longest wait for the {@linkplain #DEFAULT_TEXT_MEMORY_BYTES text memory}, 30 s (as long as a PostgreSQL
     * write waits for a failover by default, so the writes ahead, waiting out a failover, can make room). Requests wait
     * in the order they arrived; one still without room then is answered {@code 503 Service Unavailable}, the server's
     * answer when it has no thread free, and not decoded. Stops clients that keep the text memory full (or a fault that
     * keeps it so) from parking a server thread per request for ever.
     */
    public static final long DEFAULT_TEXT_MEMORY_WAIT_MILLIS = 30_000;

    /**
     * Default longest query string, in chars: {@link Integer#MAX_VALUE}, i.e. no limit of ASP.NET's kind. The
     * server's own request-line limit (Jetty's and Tomcat's 8 KiB head) already bounds memory, and ASP.NET's
     * {@code maxQueryStringLength} (2,048) is usually raised together with IIS's {@code maxQueryString} for HTTP
     * GET clients (a 256-byte WriteBytes is ~3,000 chars of {@code content=}), which must keep working. Set it to
     * answer longer queries as ASP.NET does: 400 and its error page, "The length of the query string for this
     * request exceeds the configured maxQueryStringLength value."
     */
    public static final int DEFAULT_MAX_QUERY_STRING_LENGTH = Integer.MAX_VALUE;

    private static final CodecLimits DEFAULTS = builder().build();

    private final long maxRequestBytes;
    private final int maxElementDepth;
    private final int maxAttributesPerElement;
    private final int maxAttributeValueLength;
    private final int maxTextLength;
    private final int maxElementCount;
    private final int maxParameterNames;
    private final int spoolMemoryBytes;
    private final int bodyMemoryBytes;
    private final long bodyMemoryBudgetBytes;
    private final long textMemoryBytes;
    private final long textMemoryWaitMillis;
    private final int maxQueryStringLength;

    private CodecLimits(Builder builder) {
        this.maxRequestBytes = builder.maxRequestBytes;
        this.maxElementDepth = builder.maxElementDepth;
        this.maxAttributesPerElement = builder.maxAttributesPerElement;
        this.maxAttributeValueLength = builder.maxAttributeValueLength;
        this.maxTextLength = builder.maxTextLength;
        this.maxElementCount = builder.maxElementCount;
        this.maxParameterNames = builder.maxParameterNames;
        this.spoolMemoryBytes = builder.spoolMemoryBytes;
        this.bodyMemoryBytes = builder.bodyMemoryBytes;
        this.bodyMemoryBudgetBytes = builder.bodyMemoryBudgetBytes;
        this.textMemoryBytes = builder.textMemoryBytes;
        this.textMemoryWaitMillis = builder.textMemoryWaitMillis;
        this.maxQueryStringLength = builder.maxQueryStringLength;
    }

    /** {@return the default limits} */
    public static CodecLimits defaults() {
        return DEFAULTS;
    }

    /** {@return a builder starting from the default limits} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return a builder starting from these limits} */
    public Builder toBuilder() {
        return new Builder(this);
    }

    /** {@return the largest accepted request body, in bytes} */
    public long maxRequestBytes() {
        return maxRequestBytes;
    }

    /** {@return the deepest accepted element nesting; the root element is at depth 1} */
    public int maxElementDepth() {
        return maxElementDepth;
    }

    /** {@return the most attributes accepted on one element} */
    public int maxAttributesPerElement() {
        return maxAttributesPerElement;
    }

    /** {@return the longest accepted attribute value, in chars} */
    public int maxAttributeValueLength() {
        return maxAttributeValueLength;
    }

    /** {@return the longest accepted {@code key} or {@code value} text, comment or processing instruction, in chars} */
    public int maxTextLength() {
        return maxTextLength;
    }

    /** {@return the most elements accepted in one SOAP request} */
    public int maxElementCount() {
        return maxElementCount;
    }

    /** {@return the most distinct parameter names accepted in one HTTP GET query or POST form} */
    public int maxParameterNames() {
        return maxParameterNames;
    }

    /** {@return the bytes of spooled content kept in memory before the rest goes to a temporary file} */
    public int spoolMemoryBytes() {
        return spoolMemoryBytes;
    }

    /**
     * {@return the bytes of one request body kept in memory while it arrives, before the rest goes to a temporary
     * file}
     */
    public int bodyMemoryBytes() {
        return bodyMemoryBytes;
    }

    /** {@return the bytes of heap all request bodies in flight may hold together (see {@link BodyMemoryBudget})} */
    public long bodyMemoryBudgetBytes() {
        return bodyMemoryBudgetBytes;
    }

    /** {@return the bytes of heap text values decoded from large bodies may hold together (see {@link TextMemory})} */
    public long textMemoryBytes() {
        return textMemoryBytes;
    }

    /** {@return the longest a request waits for the text memory, in milliseconds, before it is answered 503} */
    public long textMemoryWaitMillis() {
        return textMemoryWaitMillis;
    }

    /** {@return the longest accepted query string ({@link CodecRequest#rawQuery()}), in chars} */
    public int maxQueryStringLength() {
        return maxQueryStringLength;
    }

    @Override
    public String toString() {
        return "CodecLimits{maxRequestBytes=" + maxRequestBytes + ", maxElementDepth=" + maxElementDepth
                + ", maxAttributesPerElement=" + maxAttributesPerElement
                + ", maxAttributeValueLength=" + maxAttributeValueLength + ", maxTextLength=" + maxTextLength
                + ", maxElementCount=" + maxElementCount + ", maxParameterNames=" + maxParameterNames
                + ", spoolMemoryBytes=" + spoolMemoryBytes + ", bodyMemoryBytes=" + bodyMemoryBytes
                + ", bodyMemoryBudgetBytes=" + bodyMemoryBudgetBytes + ", textMemoryBytes=" + textMemoryBytes
                + ", textMemoryWaitMillis=" + textMemoryWaitMillis + ", maxQueryStringLength=" + maxQueryStringLength + '}';
    }

    /** Builds {@link CodecLimits}; starts from the defaults. Not thread-safe. */
    public static final class Builder {
        private long maxRequestBytes = DEFAULT_MAX_REQUEST_BYTES;
        private int maxElementDepth = DEFAULT_MAX_ELEMENT_DEPTH;
        private int maxAttributesPerElement = DEFAULT_MAX_ATTRIBUTES_PER_ELEMENT;
        private int maxAttributeValueLength = DEFAULT_MAX_ATTRIBUTE_VALUE_LENGTH;
        private int maxTextLength = DEFAULT_MAX_TEXT_LENGTH;
        private int maxElementCount = DEFAULT_MAX_ELEMENT_COUNT;
        private int maxParameterNames = DEFAULT_MAX_PARAMETER_NAMES;
        private int spoolMemoryBytes = DEFAULT_SPOOL_MEMORY_BYTES;
        private int bodyMemoryBytes = DEFAULT_BODY_MEMORY_BYTES;
        private long bodyMemoryBudgetBytes = DEFAULT_BODY_MEMORY_BUDGET_BYTES;
        private long textMemoryBytes = DEFAULT_TEXT_MEMORY_BYTES;
        private long textMemoryWaitMillis = DEFAULT_TEXT_MEMORY_WAIT_MILLIS;
        private int maxQueryStringLength = DEFAULT_MAX_QUERY_STRING_LENGTH;

        private Builder() {
        }

        /** Values already checked when {@code limits} was built. */
        private Builder(CodecLimits limits) {
            maxRequestBytes = limits.maxRequestBytes;
            maxElementDepth = limits.maxElementDepth;
            maxAttributesPerElement = limits.maxAttributesPerElement;
            maxAttributeValueLength = limits.maxAttributeValueLength;
            maxTextLength = limits.maxTextLength;
            maxElementCount = limits.maxElementCount;
            maxParameterNames = limits.maxParameterNames;
            spoolMemoryBytes = limits.spoolMemoryBytes;
            bodyMemoryBytes = limits.bodyMemoryBytes;
            bodyMemoryBudgetBytes = limits.bodyMemoryBudgetBytes;
            textMemoryBytes = limits.textMemoryBytes;
            textMemoryWaitMillis = limits.textMemoryWaitMillis;
            maxQueryStringLength = limits.maxQueryStringLength;
        }

        /**
         * Sets {@link CodecLimits#maxRequestBytes()}.
         *
         * @param maxRequestBytes the limit; default {@link #DEFAULT_MAX_REQUEST_BYTES}
         * @return this builder
         */
        public Builder maxRequestBytes(long maxRequestBytes) {
            if (maxRequestBytes < 0) {
                throw new IllegalArgumentException("maxRequestBytes must not be negative: " + maxRequestBytes);
            }
            this.maxRequestBytes = maxRequestBytes;
            return this;
        }

        /**
         * Sets {@link CodecLimits#maxElementDepth()}.
         *
         * @param maxElementDepth the limit; default {@link #DEFAULT_MAX_ELEMENT_DEPTH}
         * @return this builder
         */
        public Builder maxElementDepth(int maxElementDepth) {
            // 4 levels: Envelope, Body, the operation wrapper, its parameter
            this.maxElementDepth = atLeast(4, maxElementDepth, "maxElementDepth");
            return this;
        }

        /**
         * Sets {@link CodecLimits#maxAttributesPerElement()}.
         *
         * @param maxAttributesPerElement the limit; default {@link #DEFAULT_MAX_ATTRIBUTES_PER_ELEMENT}
         * @return this builder
         */
        public Builder maxAttributesPerElement(int maxAttributesPerElement) {
            this.maxAttributesPerElement = atLeast(1, maxAttributesPerElement, "maxAttributesPerElement");
            return this;
        }

        /**
         * Sets {@link CodecLimits#maxAttributeValueLength()}.
         *
         * @param maxAttributeValueLength the limit; default {@link #DEFAULT_MAX_ATTRIBUTE_VALUE_LENGTH}
         * @return this builder
         */
        public Builder maxAttributeValueLength(int maxAttributeValueLength) {
            this.maxAttributeValueLength = atLeast(1, maxAttributeValueLength, "maxAttributeValueLength");
            return this;
        }

        /**
         * Sets {@link CodecLimits#maxTextLength()}.
         *
         * @param maxTextLength the limit; default {@link #DEFAULT_MAX_TEXT_LENGTH}
         * @return this builder
         */
        public Builder maxTextLength(int maxTextLength) {
            this.maxTextLength = atLeast(0, maxTextLength, "maxTextLength");
            return this;
        }

        /**
         * Sets {@link CodecLimits#maxElementCount()}.
         *
         * @param maxElementCount the limit; default {@link #DEFAULT_MAX_ELEMENT_COUNT}
         * @return this builder
         */
        public Builder maxElementCount(int maxElementCount) {
            this.maxElementCount = atLeast(5, maxElementCount, "maxElementCount");
            return this;
        }

        /**
         * Sets {@link CodecLimits#maxParameterNames()}.
         *
         * @param maxParameterNames the limit; default {@link #DEFAULT_MAX_PARAMETER_NAMES}
         * @return this builder
         */
        public Builder maxParameterNames(int maxParameterNames) {
            this.maxParameterNames = atLeast(2, maxParameterNames, "maxParameterNames");
            return this;
        }

        /**
         * Sets {@link CodecLimits#spoolMemoryBytes()}.
         *
         * @param spoolMemoryBytes the limit; default {@link #DEFAULT_SPOOL_MEMORY_BYTES}
         * @return this builder
         */
        public Builder spoolMemoryBytes(int spoolMemoryBytes) {
            this.spoolMemoryBytes = atLeast(0, spoolMemoryBytes, "spoolMemoryBytes");
            return this;
        }

        /**
         * Sets {@link CodecLimits#bodyMemoryBytes()}.
         *
         * @param bodyMemoryBytes the limit; default {@link #DEFAULT_BODY_MEMORY_BYTES}
         * @return this builder
         */
        public Builder bodyMemoryBytes(int bodyMemoryBytes) {
            this.bodyMemoryBytes = atLeast(0, bodyMemoryBytes, "bodyMemoryBytes");
            return this;
        }

        /**
         * Sets {@link CodecLimits#maxQueryStringLength()}.
         *
         * @param maxQueryStringLength the limit; default {@link #DEFAULT_MAX_QUERY_STRING_LENGTH}
         * @return this builder
         */
        public Builder maxQueryStringLength(int maxQueryStringLength) {
            this.maxQueryStringLength = atLeast(0, maxQueryStringLength, "maxQueryStringLength");
            return this;
        }

        /**
         * Sets {@link CodecLimits#bodyMemoryBudgetBytes()}.
         *
         * @param bodyMemoryBudgetBytes the limit; default {@link #DEFAULT_BODY_MEMORY_BUDGET_BYTES}
         * @return this builder
         */
        public Builder bodyMemoryBudgetBytes(long bodyMemoryBudgetBytes) {
            if (bodyMemoryBudgetBytes < 0) {
                throw new IllegalArgumentException("bodyMemoryBudgetBytes must not be negative: " + bodyMemoryBudgetBytes);
            }
            this.bodyMemoryBudgetBytes = bodyMemoryBudgetBytes;
            return this;
        }

        /**
         * Sets {@link CodecLimits#textMemoryBytes()}.
         *
         * @param textMemoryBytes the limit; default {@link #DEFAULT_TEXT_MEMORY_BYTES}
         * @return this builder
         */
        public Builder textMemoryBytes(long textMemoryBytes) {
            if (textMemoryBytes < 0) {
                throw new IllegalArgumentException("textMemoryBytes must not be negative: " + textMemoryBytes);
            }
            this.textMemoryBytes = textMemoryBytes;
            return this;
        }

        /**
         * Sets how long a request waits for the text memory.
         *
         * @param textMemoryWaitMillis milliseconds, 0 or more
         * @return this builder
         * @see #DEFAULT_TEXT_MEMORY_WAIT_MILLIS
         */
        public Builder textMemoryWaitMillis(long textMemoryWaitMillis) {
            if (textMemoryWaitMillis < 0) {
                throw new IllegalArgumentException("textMemoryWaitMillis must not be negative: " + textMemoryWaitMillis);
            }
            this.textMemoryWaitMillis = textMemoryWaitMillis;
            return this;
        }

        /** {@return the limits} */
        public CodecLimits build() {
            return new CodecLimits(this);
        }

        private static int atLeast(int minimum, int value, String name) {
            if (value < minimum) {
                throw new IllegalArgumentException(name + " must be at least " + minimum + ": " + value);
            }
            return value;
        }
    }
}
