package org.storeservice.jetty;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.LongSupplier;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.codec.CodecRequest;
import org.storeservice.codec.CodecResponse;
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
 * <p>Where it runs depends on the codec's store. In general the codec blocks: it reads the body through an
 * {@code InputStream} and waits for the storage write. This handler then declares
 * {@link InvocationType#BLOCKING}, which tells Jetty to call it on a thread-pool thread, never on a selector
 * thread, where blocking would stall every other connection. When the store's writes never block
 * ({@link StoreCodec#writesNeverBlock()}, the memory storage) it declares {@link InvocationType#NON_BLOCKING}
 * instead, so Jetty calls it on the selector thread that parsed the request, and it answers there, without a
 * hand-off to another thread, when the whole body has already arrived and is small (at most
 * 16 KiB, and no more than the codec keeps in memory when it spools content).
 * Any other request (body still arriving, larger, or {@code Expect: 100-continue}) is handed to the server's
 * executor and answered there exactly as a blocking handler answers it.
 *
 * <p>The body the codec reads is cut off one byte past the codec's own request size limit, whatever its
 * framing (so a chunked body cannot get round the limit), and failed if it arrives slower than a minimum
 * average rate (so a client cannot hold a thread by trickling it inside the idle timeout). What the codec
 * leaves unread is discarded, up to a bound, before the answer is written, so that a client still sending
 * gets the answer rather than a connection reset.
 *
 * <p>An unexpected failure of the codec becomes a plain {@code 500} whose body names no internals; the
 * exception goes to the log. Immutable and thread-safe.
 */
public final class StoreHandler extends Handler.Abstract {
    private static final Logger log = LoggerFactory.getLogger(StoreHandler.class);
    private static final byte[] INTERNAL_ERROR_BODY = "Internal Server Error".getBytes(StandardCharsets.UTF_8);

    /**
     * The default minimum request data rate, 1 KiB/s on average: slower than any working link, yet it stops a
     * client from trickling a body to hold a thread (at that rate a 4 MiB body may still take 68 minutes).
     */
    public static final long DEFAULT_MIN_REQUEST_DATA_RATE = 1024;
    /** How long a body may take before its rate counts, for clients that pause before sending it. */
    static final Duration RATE_GRACE = Duration.ofSeconds(10);

    /**
     * The largest body answered on the selector thread: a small request's. Larger ones take longer to decode
     * than a selector should be held from its other connections.
     */
    static final int MAX_INLINE_BODY_BYTES = 16 * 1024;
    private static final byte[] UNAVAILABLE_BODY = "Service Unavailable".getBytes(StandardCharsets.UTF_8);

    private final StoreCodec codec;
    /** The largest body answered where Jetty called us, without blocking; {@code -1} when we may block. */
    private final int maxInlineBodyBytes;
    private final long minRequestDataRate;
    private final long rateGraceNanos;
    private final LongSupplier nanoClock;

    /** A handler that answers {@code codec}'s endpoint, with the default minimum request data rate. */
    public StoreHandler(StoreCodec codec) {
        this(codec, DEFAULT_MIN_REQUEST_DATA_RATE);
    }

    /**
     * A handler that answers {@code codec}'s endpoint.
     *
     * @param minRequestDataRate the slowest accepted average body rate in bytes per second, counted after
     *     the first 10 seconds; {@code 0} for no minimum
     */
    public StoreHandler(StoreCodec codec, long minRequestDataRate) {
        this(codec, minRequestDataRate, RATE_GRACE, System::nanoTime);
    }

    StoreHandler(StoreCodec codec, long minRequestDataRate, Duration rateGrace, LongSupplier nanoClock) {
        super(invocationType(codec));
        this.codec = codec;
        this.maxInlineBodyBytes = codec.writesNeverBlock()
                // Up to the spool's memory part, content sent before its key never goes to a temporary file.
                ? Math.min(MAX_INLINE_BODY_BYTES, codec.limits().spoolMemoryBytes())
                : -1;
        if (minRequestDataRate < 0) {
            throw new IllegalArgumentException("minRequestDataRate must not be negative: " + minRequestDataRate);
        }
        this.minRequestDataRate = minRequestDataRate;
        this.rateGraceNanos = rateGrace.toNanos();
        this.nanoClock = nanoClock;
    }

    /** The codec this handler serves. */
    public StoreCodec codec() {
        return codec;
    }

    private static InvocationType invocationType(StoreCodec codec) {
        return Objects.requireNonNull(codec, "codec").writesNeverBlock()
                ? InvocationType.NON_BLOCKING
                : InvocationType.BLOCKING;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        HttpURI uri = request.getHttpURI();
        String path = uri.getDecodedPath();
        if (path == null || !codec.matches(path)) {
            return false;
        }
        if (maxInlineBodyBytes < 0) {
            // BLOCKING: Jetty called us on a thread that may block.
            ReadAheadBody body = ReadAheadBody.none(request);
            answerBlocking(request, uri, path, body, rated(body), response, callback);
            return true;
        }
        ReadAheadBody body = ReadAheadBody.read(request, maxInlineBodyBytes);
        if (body.isComplete() && body.bytesHeld() <= maxInlineBodyBytes) {
            answerInline(request, uri, path, body, response, callback);
        } else {
            handOff(request, uri, path, body, response, callback);
        }
        return true;
    }

    /**
     * Answers on this (selector) thread: the whole body is in memory and the store never blocks, so nothing
     * here waits. The body was read to its end, so there is nothing to discard, and no rate to check: the
     * minimum rate exists to bound how long a body holds a thread, and this one holds none.
     */
    private void answerInline(Request request, HttpURI uri, String path, ReadAheadBody body, Response response,
            Callback callback) {
        CodecResponse answer;
        try {
            answer = answer(request, uri, path, new RequestBodyLimit(body, codec.limits().maxRequestBytes()));
        } finally {
            body.release();
        }
        write(answer, response, callback);
    }

    /** Answers on one of the server's threads, where the rest of the body may be waited for. */
    private void handOff(Request request, HttpURI uri, String path, ReadAheadBody body, Response response,
            Callback callback) {
        try {
            request.getComponents().getExecutor().execute(
                    new BlockingAnswer(request, uri, path, body, response, callback));
        } catch (RejectedExecutionException e) {
            body.release();
            log.warn("No thread free to answer {} {}: {}", request.getMethod(), path, e.toString());
            writePlain(503, UNAVAILABLE_BODY, response, callback);
        }
    }

    /** A request handed off from a thread that must not block: answered as a blocking handler answers it. */
    final class BlockingAnswer implements Runnable {
        private final Request request;
        private final HttpURI uri;
        private final String path;
        private final ReadAheadBody body;
        private final MinimumRateBody rated;
        private final Response response;
        private final Callback callback;

        private BlockingAnswer(Request request, HttpURI uri, String path, ReadAheadBody body, Response response,
                Callback callback) {
            this.request = request;
            this.uri = uri;
            this.path = path;
            this.body = body;
            this.rated = rated(body); // the rate counts from the hand-off, as from a blocking handler's call
            this.response = response;
            this.callback = callback;
        }

        @Override
        public void run() {
            try {
                answerBlocking(request, uri, path, body, rated, response, callback);
            } catch (Throwable e) {
                // What Jetty does for a handler that throws: fail the request, which answers 500 or aborts it.
                body.release();
                log.error("Unexpected failure answering {} {}", request.getMethod(), path, e);
                callback.failed(e);
            }
        }
    }

    private MinimumRateBody rated(ReadAheadBody body) {
        return new MinimumRateBody(body, minRequestDataRate, rateGraceNanos, nanoClock);
    }

    /** The blocking path: the codec reads the body as it arrives, blocking, with its size and rate guarded. */
    private void answerBlocking(Request request, HttpURI uri, String path, ReadAheadBody held, MinimumRateBody body,
            Response response, Callback callback) {
        long maxRequestBytes = codec.limits().maxRequestBytes();
        CodecResponse answer;
        try {
            answer = answer(request, uri, path, new RequestBodyLimit(body, maxRequestBytes));
            discardUnread(request, body, maxRequestBytes);
        } finally {
            held.release();
        }
        write(answer, response, callback);
    }

    /** The codec's answer, or {@code null} after an unexpected failure (logged). */
    private CodecResponse answer(Request request, HttpURI uri, String path, InputStream body) {
        try {
            return codec.handle(toCodecRequest(request, uri, path, body));
        } catch (RuntimeException | StackOverflowError e) {
            // The codec promises never to throw for anything a client sent, so this is our bug or the
            // platform's: log it whole, tell the client nothing about it. StackOverflowError is the one
            // Error a hostile document could provoke in a parser; other Errors are left to Jetty.
            log.error("Unexpected failure answering {} {}", request.getMethod(), path, e);
            return null;
        }
    }

    private static void discardUnread(Request request, MinimumRateBody body, long maxRequestBytes) {
        if (body.bytesRead() == 0 && request.getHeaders().contains(HttpHeader.EXPECT, "100-continue")) {
            // The client waits for our go-ahead before it sends the body; reading now would ask for a body
            // nobody will use. Jetty answers without the go-ahead and the client sends nothing.
            return;
        }
        // Twice the limit: a body refused on its Content-Length alone (nothing read yet) that overshoots the limit
        // by up to another limit's worth is still read to its end, so its client gets the fault, not a reset.
        UnreadBody.discard(body, maxRequestBytes > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : 2 * maxRequestBytes);
    }

    /** The slowest accepted average body rate, in bytes per second; {@code 0} for no minimum. */
    public long minRequestDataRate() {
        return minRequestDataRate;
    }

    private static CodecRequest toCodecRequest(Request request, HttpURI uri, String path, InputStream body) {
        CodecRequest.Builder builder = CodecRequest.builder(request.getMethod(), path)
                .rawQuery(uri.getQuery())
                .scheme(uri.getScheme() != null ? uri.getScheme() : (request.isSecure() ? "https" : "http"))
                .body(body);
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
    private static void write(CodecResponse answer, Response response, Callback callback) {
        if (answer == null) {
            writeInternalError(response, callback);
            return;
        }
        ByteBuffer body = answer.body();
        response.setStatus(answer.status());
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

    private static void writeInternalError(Response response, Callback callback) {
        if (response.isCommitted()) {
            // Nothing coherent can follow a partial response; let Jetty abort the exchange.
            callback.failed(new IllegalStateException("response already committed"));
            return;
        }
        response.reset();
        writePlain(500, INTERNAL_ERROR_BODY, response, callback);
    }

    private static void writePlain(int status, byte[] text, Response response, Callback callback) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, text.length);
        response.write(true, ByteBuffer.wrap(text), callback);
    }

    @Override
    public String toString() {
        return "StoreHandler{" + codec + ", minRequestDataRate=" + minRequestDataRate + '}';
    }
}
