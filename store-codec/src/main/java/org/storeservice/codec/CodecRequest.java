package org.storeservice.codec;

import java.io.InputStream;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One HTTP request as the codec sees it, independent of any server: method, path, raw query, headers and
 * the body as a stream. A server adapter builds one per request.
 *
 * <p>Immutable except for the body stream, which the codec reads at most once. Not for sharing across threads.
 */
public final class CodecRequest {
    private final String method;
    private final String path;
    private final String rawQuery;
    private final String scheme;
    private final String remoteAddress;
    private final boolean local;
    private final Map<String, List<String>> headers;
    private final InputStream body;
    private final long bodyLength;

    private CodecRequest(Builder builder) {
        this.method = builder.method;
        this.path = builder.path;
        this.rawQuery = builder.rawQuery;
        this.scheme = builder.scheme;
        this.remoteAddress = builder.remoteAddress;
        this.local = builder.remoteAddress != null && (isLoopback(builder.remoteAddress)
                || builder.remoteAddress.equalsIgnoreCase(builder.localAddress));
        // Handed over, not copied: the values are immutable lists, and the builder copies the map before
        // it changes it again (one copy less per request than copying here).
        this.headers = Collections.unmodifiableMap(builder.headers);
        builder.headersShared = true;
        this.body = builder.body;
        this.bodyLength = builder.bodyLength;
    }

    /** This request with another body stream: the codec's counting view of it. */
    private CodecRequest(CodecRequest request, InputStream body) {
        this.method = request.method;
        this.path = request.path;
        this.rawQuery = request.rawQuery;
        this.scheme = request.scheme;
        this.remoteAddress = request.remoteAddress;
        this.local = request.local;
        this.headers = request.headers;
        this.body = body;
        this.bodyLength = request.bodyLength;
    }

    CodecRequest withBody(InputStream body) {
        return new CodecRequest(this, body);
    }

    /**
     * {@return a builder of a request for {@code method} on {@code path}}
     *
     * @param method the HTTP method, for example {@code "POST"}
     * @param path the decoded request path without the query, for example {@code "/API/Store.asmx/WriteString"}
     */
    public static Builder builder(String method, String path) {
        return new Builder(method, path);
    }

    /** {@return the HTTP method, upper case as sent} */
    public String method() {
        return method;
    }

    /** {@return the decoded path, without the query string} */
    public String path() {
        return path;
    }

    /** {@return the query string as sent (still percent-encoded), without the {@code '?'}; empty if none} */
    public String rawQuery() {
        return rawQuery;
    }

    /** {@return {@code "http"} or {@code "https"}: how the client reached the server} For addresses in the WSDL. */
    public String scheme() {
        return scheme;
    }

    /** {@return the client's IP address as the connection shows it, or {@code null} if the adapter did not set it} */
    public String remoteAddress() {
        return remoteAddress;
    }

    /**
     * {@return whether the client is on this machine}, as ASP.NET's {@code Request.IsLocal} decides: its address is a
     * loopback address or equals the server's address on the connection. False when no address was set.
     * Decides {@link Protocol#HTTP_POST_LOCALHOST}.
     */
    public boolean isLocal() {
        return local;
    }

    /** {@code 127.0.0.0/8} or {@code ::1} (also IPv4-mapped), read from the literal alone: never a DNS lookup. */
    private static boolean isLoopback(String address) {
        String a = address.startsWith("[") && address.endsWith("]") ? address.substring(1, address.length() - 1) : address;
        if (a.regionMatches(true, 0, "::ffff:", 0, 7)) {
            a = a.substring(7);
        }
        return a.startsWith("127.") || a.equals("::1") || a.equals("0:0:0:0:0:0:0:1");
    }

    /**
     * {@return the first value of header {@code name}, or {@code null} if absent}
     *
     * @param name the header's name, in any case
     */
    public String header(String name) {
        List<String> values = headers.get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    /**
     * {@return every value of header {@code name}, in order; empty if absent}
     *
     * @param name the header's name, in any case
     */
    public List<String> headers(String name) {
        return headers.getOrDefault(name, List.of());
    }

    /** {@return all headers, names case-insensitive} */
    public Map<String, List<String>> headers() {
        return headers;
    }

    /** {@return the request body; empty for a request without one} */
    public InputStream body() {
        return body;
    }

    /**
     * {@return the body's length in bytes}: as the server adapter gave it ({@link Builder#bodyLength}), else the
     * declared Content-Length; -1 if neither is known.
     */
    public long bodyLength() {
        if (bodyLength >= 0) {
            return bodyLength;
        }
        String contentLength = header("Content-Length");
        if (contentLength == null) {
            return -1;
        }
        try {
            return Math.max(-1, Long.parseLong(contentLength.strip()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @Override
    public String toString() {
        return method + ' ' + path + (rawQuery.isEmpty() ? "" : "?" + rawQuery);
    }

    /** Builds a {@link CodecRequest}. Not thread-safe. */
    public static final class Builder {
        private final String method;
        private final String path;
        private String rawQuery = "";
        private String scheme = "http";
        private String remoteAddress;
        private String localAddress;
        /** Header values as immutable lists; copied before a change once a built request shares it. */
        private TreeMap<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        private boolean headersShared;
        private InputStream body = InputStream.nullInputStream();
        private long bodyLength = -1;

        private Builder(String method, String path) {
            this.method = Objects.requireNonNull(method, "method");
            this.path = Objects.requireNonNull(path, "path");
        }

        /**
         * Sets the query string.
         *
         * @param rawQuery the query string as sent (percent-encoded), without {@code '?'}; {@code null} means none
         * @return this builder
         */
        public Builder rawQuery(String rawQuery) {
            this.rawQuery = rawQuery == null ? "" : rawQuery;
            return this;
        }

        /**
         * Sets how the client reached the server, for the addresses in the WSDL; default {@code "http"}.
         *
         * @param scheme {@code "http"} or {@code "https"}
         * @return this builder
         */
        public Builder scheme(String scheme) {
            this.scheme = Objects.requireNonNull(scheme, "scheme").toLowerCase(Locale.ROOT);
            return this;
        }

        /**
         * The client's IP address (a literal such as {@code 127.0.0.1} or {@code ::1}) and the server's own
         * address on this connection ({@code null} if unknown): together they decide {@link CodecRequest#isLocal()}.
         *
         * @param remoteAddress the client's address
         * @param localAddress the server's address on the connection
         * @return this builder
         */
        public Builder clientAddresses(String remoteAddress, String localAddress) {
            this.remoteAddress = remoteAddress;
            this.localAddress = localAddress;
            return this;
        }

        /**
         * Adds one value of header {@code name}; call again to add more values.
         *
         * @param name the header's name
         * @param value one of its values
         * @return this builder
         */
        public Builder header(String name, String value) {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(value, "value");
            if (headersShared) {
                headers = new TreeMap<>(headers);
                headersShared = false;
            }
            List<String> values = headers.get(name);
            if (values == null) {
                headers.put(name, List.of(value));
            } else {
                List<String> more = new ArrayList<>(values.size() + 1);
                more.addAll(values);
                more.add(value);
                headers.put(name, List.copyOf(more));
            }
            return this;
        }

        /**
         * Sets the body; none by default (an empty body).
         *
         * @param body the body's bytes, read at most once
         * @return this builder
         */
        public Builder body(InputStream body) {
            this.body = Objects.requireNonNull(body, "body");
            return this;
        }

        /**
         * The body's length, for an adapter that has the whole body before the codec runs (a chunked body has no
         * Content-Length); -1, the default, when unknown.
         *
         * @param bodyLength the length in bytes, or -1
         * @return this builder
         */
        public Builder bodyLength(long bodyLength) {
            this.bodyLength = Math.max(-1, bodyLength);
            return this;
        }

        /** {@return the request} */
        public CodecRequest build() {
            return new CodecRequest(this);
        }
    }
}
