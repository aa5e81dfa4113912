package org.storeservice.jetty;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.CodecRequest;
import org.storeservice.codec.CodecResponse;
import org.storeservice.codec.RequestKind;
import org.storeservice.codec.StoreCodec;

/**
 * Serves a {@link StoreCodec} on Jetty 12's core Handler API: every request whose path the codec
 * {@linkplain StoreCodec#matches(String) matches} goes to the codec, and its answer is written out as it is.
 * Any other path is declined ({@code handle} returns {@code false}), so a host can put this handler in a
 * {@link Handler.Sequence} beside its own handlers.
 *
 * <p>The path compared is the request's whole decoded path, not the path inside a context: the codec's
 * endpoint path is what clients see, and what the WSDL's addresses must name.
 *
 * <p><b>No thread waits for a client, nor for a write.</b> The body is collected as it arrives, without
 * blocking, into the codec's {@link org.storeservice.codec.RequestBodyBuffer} (memory within the codec's budget,
 * then a temporary file), and the codec runs only once the whole body is there. So a client that trickles its
 * body costs a connection and a little memory, never a thread. The handler is
 * {@link InvocationType#NON_BLOCKING}: a body held in memory of at most 128 KiB (a 64 KiB WriteBytes; and no more than
 * four thirds of what the codec's spool keeps in memory) is answered right where it was completed, on the selector
 * thread, with
 * {@link StoreCodec#handleAsync}: decoding only computes, a WriteString or a WriteBytes of up to 64 KiB is queued to
 * the store (SQLite's writer commits it and the answer is written from its thread), and a store call that may block
 * goes to the server's executor. A larger body, or one in a file, is handed to the executor ({@code 503} if it refuses).
 *
 * <p>The buffer keeps at most one byte past the codec's request size limit, whatever the framing, so the
 * codec answers an oversized body with its ASMX fault; the rest of such a body is read and dropped, up to
 * another limit's worth, so that a client still sending gets that answer rather than a reset. A body that
 * arrives slower than a minimum average rate gets {@code 408}, and so does one that stalls past the idle
 * timeout. A transfer coding other than {@code chunked} gets {@code 501} (RFC 9112 §6.1): it is not
 * decoded, and storing the coded bytes as the value would be wrong.
 *
 * <p>An unexpected failure of the codec becomes a plain {@code 500} whose body names no internals; the
 * exception goes to the log. Over HTTP/1.x the status line carries ASP.NET's reason phrase
 * ({@code 500 Internal Server Error}, not Jetty's {@code Server Error}). Immutable and thread-safe.
 */
public final class StoreHandler extends Handler.Abstract {
    private static final Logger log = LoggerFactory.getLogger(StoreHandler.class);
    private static final byte[] INTERNAL_ERROR_BODY = "Internal Server Error".getBytes(StandardCharsets.UTF_8);
    private static final byte[] NOT_IMPLEMENTED_BODY = "Not Implemented".getBytes(StandardCharsets.UTF_8);

    /**
     * The default minimum request data rate, 1 KiB/s on average: slower than any working link, yet it stops a
     * client from holding a connection and its body's buffer for hours by trickling (at that rate a 4 MiB body
     * may still take 68 minutes).
     */
    public static final long DEFAULT_MIN_REQUEST_DATA_RATE = 1024;
    /** How long a body may take before its rate counts, for clients that pause before sending it. */
    static final Duration RATE_GRACE = Duration.ofSeconds(10);

    /**
     * The largest body answered on the selector thread: a 64 KiB WriteBytes fits. Decoding it takes less time than
     * handing it to another thread (the same-run A/B in BENCHMARKS.md, fourteenth round); larger ones take longer to
     * decode than a selector should be held from its other connections.
     */
    static final int MAX_INLINE_BODY_BYTES = 128 * 1024;

    /** The request attribute naming the binding that answered, for the access log (see {@link StoreServer#ACCESS_LOG_FORMAT}). */
    public static final String BINDING_ATTRIBUTE = "store.binding";
    /** The request attribute naming the operation called, for the access log. */
    public static final String OPERATION_ATTRIBUTE = "store.operation";

    private final StoreCodec codec;
    /** Whether each answered request gets the binding and operation attributes; only when something logs them. */
    private final boolean marksRequests;
    /** The largest body answered where it was completed, on a thread that must not block. */
    private final int maxInlineBodyBytes;
    private final MinimumRate minimumRate;

    /**
     * A handler that answers {@code codec}'s endpoint, with the default minimum request data rate.
     *
     * @param codec what answers each request
     */
    public StoreHandler(StoreCodec codec) {
        this(codec, DEFAULT_MIN_REQUEST_DATA_RATE);
    }

    /**
     * A handler that answers {@code codec}'s endpoint.
     *
     * @param codec what answers each request
     * @param minRequestDataRate the slowest accepted average body rate in bytes per second, counted after
     *     the first 10 seconds; {@code 0} for no minimum
     */
    public StoreHandler(StoreCodec codec, long minRequestDataRate) {
        this(codec, minRequestDataRate, false);
    }

    /**
     * A handler that answers {@code codec}'s endpoint.
     *
     * @param codec what answers each request
     * @param minRequestDataRate the slowest accepted average body rate in bytes per second, counted after
     *     the first 10 seconds; {@code 0} for no minimum
     * @param marksRequests whether each answered request gets the {@link #BINDING_ATTRIBUTE} and
     *     {@link #OPERATION_ATTRIBUTE} request attributes, for a request log
     */
    public StoreHandler(StoreCodec codec, long minRequestDataRate, boolean marksRequests) {
        this(codec, minRequestDataRate, RATE_GRACE, marksRequests);
    }

    /** As {@link #StoreHandler(StoreCodec, long)}, with {@code rateGrace} instead of the first 10 seconds. */
    StoreHandler(StoreCodec codec, long minRequestDataRate, Duration rateGrace) {
        this(codec, minRequestDataRate, rateGrace, false);
    }

    private StoreHandler(StoreCodec codec, long minRequestDataRate, Duration rateGrace, boolean marksRequests) {
        super(InvocationType.NON_BLOCKING);
        this.codec = Objects.requireNonNull(codec, "codec");
        this.marksRequests = marksRequests;
        this.maxInlineBodyBytes = maxInlineBodyBytes(codec.limits());
        if (minRequestDataRate < 0) {
            throw new IllegalArgumentException("minRequestDataRate must not be negative: " + minRequestDataRate);
        }
        this.minimumRate = new MinimumRate(minRequestDataRate, rateGrace.toNanos());
    }

    /** {@return the codec this handler serves} */
    public StoreCodec codec() {
        return codec;
    }

    /** {@return the slowest accepted average body rate, in bytes per second; {@code 0} for no minimum} */
    public long minRequestDataRate() {
        return minimumRate.bytesPerSecond();
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        HttpURI uri = request.getHttpURI();
        String path = uri.getDecodedPath();
        if (path == null || !codec.matches(path)) {
            return false;
        }
        if (hasUnknownTransferCoding(request)) {
            response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
            writePlain(501, NOT_IMPLEMENTED_BODY, response, callback);
            return true;
        }
        new BodyExchange(this, request, uri, path, response, callback).start();
        return true;
    }

    /** Whether the body is sent in a transfer coding other than {@code chunked}, which Jetty does not decode. */
    private static boolean hasUnknownTransferCoding(Request request) {
        for (String coding : request.getHeaders().getCSV(HttpHeader.TRANSFER_ENCODING, false)) {
            if (!HttpHeaderValue.CHUNKED.is(coding)) {
                return true;
            }
        }
        return false;
    }

    /**
     * The inline bound for {@code limits}: base64 decodes to at most three bytes for every four chars, so content sent
     * before its key in a body of this size fits in the spool's memory part and never goes to a temporary file there.
     */
    static int maxInlineBodyBytes(CodecLimits limits) {
        return (int) Math.min(MAX_INLINE_BODY_BYTES, limits.spoolMemoryBytes() * 4L / 3);
    }

    /** Whether a body of {@code size} bytes, all in memory, may be answered on a thread that must not block. */
    boolean answersInline(long size, boolean inMemory) {
        return inMemory && size <= maxInlineBodyBytes;
    }

    MinimumRate minimumRate() {
        return minimumRate;
    }

    /**
     * The codec's answer to a request whose whole body is {@code body} (see {@link StoreCodec#handleAsync}); it
     * completes with {@code null} after an unexpected failure (logged), never exceptionally.
     */
    CompletionStage<CodecResponse> answer(Request request, HttpURI uri, String path, InputStream body, long bodyLength,
            Executor blockingWork) {
        CompletionStage<CodecResponse> answer;
        CodecRequest codecRequest;
        try {
            codecRequest = toCodecRequest(request, uri, path, body, bodyLength);
            answer = codec.handleAsync(codecRequest, blockingWork);
        } catch (RuntimeException | StackOverflowError e) {
            answer = CompletableFuture.failedFuture(e);
            codecRequest = null;
        }
        CodecRequest asked = codecRequest;
        return answer.handle((response, failure) -> {
            if (failure != null) {
                // The codec promises never to throw for anything a client sent, so this is our bug or the
                // platform's: log it whole, tell the client nothing about it. StackOverflowError is the one
                // Error a hostile document could provoke in a parser; other Errors are left to Jetty.
                log.error("Unexpected failure answering {} {}", request.getMethod(), path, failure);
                return null;
            }
            if (marksRequests) {
                RequestKind kind = codec.describe(asked, response);
                request.setAttribute(BINDING_ATTRIBUTE, kind.binding().tag());
                request.setAttribute(OPERATION_ATTRIBUTE, kind.operation());
            }
            return response;
        });
    }

    private static CodecRequest toCodecRequest(Request request, HttpURI uri, String path, InputStream body,
            long bodyLength) {
        CodecRequest.Builder builder = CodecRequest.builder(request.getMethod(), path)
                .rawQuery(uri.getQuery())
                .scheme(uri.getScheme() != null ? uri.getScheme() : (request.isSecure() ? "https" : "http"))
                .clientAddresses(Request.getRemoteAddr(request), Request.getLocalAddr(request))
                .body(body).bodyLength(bodyLength);
        for (HttpField field : request.getHeaders()) {
            builder.header(field.getName(), field.getValue());
        }
        if (!request.getHeaders().contains(HttpHeader.HOST) && uri.getAuthority() != null) {
            // HTTP/2 and HTTP/3 carry the host as :authority, not a Host field; the WSDL's addresses need it.
            builder.header(HttpHeader.HOST.asString(), uri.getAuthority());
        }
        return builder.build();
    }

    /** Writes the codec's answer, or a plain 500 if there is none. */
    static void write(CodecResponse answer, Response response, Callback callback) {
        if (answer == null) {
            writeInternalError(response, callback);
            return;
        }
        ByteBuffer body = answer.body();
        ReasonPhrases.setStatus(response, answer.status());
        HttpFields.Mutable headers = response.getHeaders();
        for (Map.Entry<String, String> header : answer.headers()) {
            // The length is ours to set, from the bytes actually sent.
            if (!HttpHeader.CONTENT_LENGTH.is(header.getKey())) {
                headers.add(header.getKey(), header.getValue());
            }
        }
        headers.put(HttpHeader.CONTENT_LENGTH, body.remaining());
        response.write(true, body, callback);
    }

    static void writeInternalError(Response response, Callback callback) {
        if (response.isCommitted()) {
            // Nothing coherent can follow a partial response; let Jetty abort the exchange.
            callback.failed(new IllegalStateException("response already committed"));
            return;
        }
        response.reset();
        writePlain(500, INTERNAL_ERROR_BODY, response, callback);
    }

    static void writePlain(int status, byte[] text, Response response, Callback callback) {
        ReasonPhrases.setStatus(response, status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, text.length);
        response.write(true, ByteBuffer.wrap(text), callback);
    }

    @Override
    public String toString() {
        return "StoreHandler{" + codec + ", minRequestDataRate=" + minRequestDataRate() + '}';
    }
}
