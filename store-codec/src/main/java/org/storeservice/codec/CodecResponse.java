package org.storeservice.codec;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.storeservice.api.Status;

/**
 * The codec's answer to one request: an HTTP status, headers in the order they are to be sent, and a body.
 * A server adapter writes it out as it is. A write's answer also says, for {@link StoreCodec#describe}, which
 * operation it answers and the {@link Status} it carries; they are not sent.
 *
 * <p>Immutable and thread-safe.
 */
public final class CodecResponse {
    private final int status;
    private final List<Map.Entry<String, String>> headers;
    private final ByteBuffer body;
    private final String operation;
    private final Status writeResult;

    private CodecResponse(Builder builder) {
        this.status = builder.status;
        this.headers = List.copyOf(builder.headers);
        this.body = builder.body.asReadOnlyBuffer();
        this.operation = builder.operation;
        this.writeResult = builder.writeResult;
    }

    /**
     * {@return a builder of a response with {@code status}}
     *
     * @param status the HTTP status code
     */
    public static Builder builder(int status) {
        return new Builder(status);
    }

    /** {@return the HTTP status code} */
    public int status() {
        return status;
    }

    /** {@return the headers to send, in order, as (name, value) pairs} Content-Length is left to the server. */
    public List<Map.Entry<String, String>> headers() {
        return headers;
    }

    /**
     * {@return the first value of header {@code name}, or {@code null}}
     *
     * @param name the header's name, in any case
     */
    public String header(String name) {
        for (Map.Entry<String, String> header : headers) {
            if (header.getKey().equalsIgnoreCase(name)) {
                return header.getValue();
            }
        }
        return null;
    }

    /** {@return the body, as a fresh read-only view (position 0)} Its length is the Content-Length. */
    public ByteBuffer body() {
        return body.duplicate();
    }

    /** {@return a copy of the body's bytes} */
    public byte[] bodyBytes() {
        ByteBuffer view = body();
        byte[] bytes = new byte[view.remaining()];
        view.get(bytes);
        return bytes;
    }

    /** The operation this answers ({@code WriteString}, {@code WriteBytes}), if the codec knew it; else {@code null}. */
    String operation() {
        return operation;
    }

    /** The status the write answered, for a write's answer; else {@code null}. */
    Status writeResult() {
        return writeResult;
    }

    @Override
    public String toString() {
        return "CodecResponse{" + status + ", " + headers + ", " + body.remaining() + " bytes}";
    }

    /** Builds a {@link CodecResponse}. Not thread-safe. */
    public static final class Builder {
        private final int status;
        private final List<Map.Entry<String, String>> headers = new ArrayList<>();
        private ByteBuffer body = ByteBuffer.allocate(0);
        private String operation;
        private Status writeResult;

        private Builder(int status) {
            this.status = status;
        }

        /**
         * Adds a header, after those added before.
         *
         * @param name the header's name
         * @param value its value
         * @return this builder
         */
        public Builder header(String name, String value) {
            headers.add(Map.entry(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value")));
            return this;
        }

        /**
         * Sets the body; none by default.
         *
         * @param body the bytes, not copied: the caller must not change them afterwards
         * @return this builder
         */
        public Builder body(byte[] body) {
            this.body = ByteBuffer.wrap(Objects.requireNonNull(body, "body"));
            return this;
        }

        /**
         * Sets the operation this answers; not sent, told to observers.
         *
         * @param operation its wire name, {@code WriteString} or {@code WriteBytes}
         * @return this builder
         */
        public Builder operation(String operation) {
            this.operation = Objects.requireNonNull(operation, "operation");
            return this;
        }

        /**
         * Sets the status the write answered, which the body carries; not sent separately, told to observers.
         *
         * @param writeResult the store's answer
         * @return this builder
         */
        public Builder writeResult(Status writeResult) {
            this.writeResult = Objects.requireNonNull(writeResult, "writeResult");
            return this;
        }

        /** {@return the response} */
        public CodecResponse build() {
            return new CodecResponse(this);
        }
    }
}
