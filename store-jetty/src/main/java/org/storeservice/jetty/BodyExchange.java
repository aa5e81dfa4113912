package org.storeservice.jetty;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.RejectedExecutionException;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.http.HttpURI;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.thread.Invocable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.codec.CodecResponse;
import org.storeservice.codec.RequestBodyBuffer;

/**
 * One request at the endpoint, from its body's first byte to its answer: reads the body as Jetty receives it,
 * never waiting for it (between reads this object is Jetty's demand callback), into the codec's
 * {@link RequestBodyBuffer}; once the body has ended, has the codec answer, on this thread or, when this
 * thread must not block, on the server's executor. The buffer is closed as soon as the codec is done with it,
 * and on every way out before that.
 *
 * <p>Jetty calls the demand callback on a thread that may block when it {@linkplain #getInvocationType()
 * declares} so: it does whenever the codec may then block (the store may, or the body is in a file). Each
 * call only reads what has arrived, so even then no thread waits for the client.
 */
final class BodyExchange implements Runnable, Invocable {
    private static final Logger log = LoggerFactory.getLogger(BodyExchange.class);
    private static final byte[] UNAVAILABLE_BODY = "Service Unavailable".getBytes(StandardCharsets.UTF_8);
    private static final byte[] TIMEOUT_BODY = "Request Timeout".getBytes(StandardCharsets.UTF_8);

    private final StoreHandler handler;
    private final Request request;
    private final HttpURI uri;
    private final String path;
    private final Response response;
    private final Callback callback;
    private final RequestBodyBuffer body;
    private final MinimumRate minimumRate;
    /** How many body bytes are read at most, past those the buffer keeps, so the client gets the answer. */
    private final long readBound;
    private final long startNanos = System.nanoTime();
    private long received;
    /** The invocation type of the demand callback pending; set before each demand. */
    private volatile boolean blockingDemand;

    BodyExchange(StoreHandler handler, Request request, HttpURI uri, String path, Response response,
            Callback callback) {
        this.handler = handler;
        this.request = request;
        this.uri = uri;
        this.path = path;
        this.response = response;
        this.callback = callback;
        this.body = handler.codec().newRequestBodyBuffer(request.getLength());
        this.minimumRate = handler.minimumRate();
        // Twice the limit: a body refused on its Content-Length (or cut off at limit + 1) that overshoots the
        // limit by up to another limit's worth is still read to its end, so its client gets the fault, not a reset.
        long max = handler.codec().limits().maxRequestBytes();
        this.readBound = max > Long.MAX_VALUE / 2 ? Long.MAX_VALUE : 2 * max;
    }

    /** Starts reading, on the thread Jetty called the handler on; {@code mayBlock} if that thread may block. */
    void start(boolean mayBlock) {
        if (body.isFull() && (request.getLength() > readBound
                || request.getHeaders().contains(HttpHeader.EXPECT, "100-continue"))) {
            // Refused on its declared length alone, and either too long to read to its end, or not even sent
            // yet: reading would send the client our go-ahead for a body nobody will use.
            bodyEnded(mayBlock);
            return;
        }
        read(mayBlock);
    }

    /** Jetty's demand callback: more of the body has arrived, or the request failed. */
    @Override
    public void run() {
        read(blockingDemand);
    }

    @Override
    public InvocationType getInvocationType() {
        return blockingDemand ? InvocationType.BLOCKING : InvocationType.NON_BLOCKING;
    }

    private void read(boolean mayBlock) {
        while (true) {
            Content.Chunk chunk = request.read();
            if (chunk == null) {
                // The codec may block after the last chunk unless the store never blocks and the body is in memory.
                blockingDemand = !handler.codec().writesNeverBlock() || !body.inMemory();
                request.demand(this);
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                failed(chunk);
                return;
            }
            boolean last = chunk.isLast();
            try {
                received += chunk.remaining();
                body.append(chunk.getByteBuffer());
            } catch (IOException | RuntimeException e) {
                body.close();
                log.warn("Could not hold the body of {} {}", request.getMethod(), path, e);
                StoreHandler.writeInternalError(response, callback);
                return;
            } finally {
                chunk.release();
            }
            if (last || (body.isFull() && received > readBound)) {
                bodyEnded(mayBlock);
                return;
            }
            if (minimumRate.tooSlow(received, System.nanoTime() - startNanos)) {
                log.debug("Request body too slow: {} bytes in {} ms", received, (System.nanoTime() - startNanos) / 1_000_000);
                timedOut();
                return;
            }
        }
    }

    /**
     * A failure instead of content: a transient one is Jetty's idle timeout while the body stalled (answered
     * {@code 408}); a last one means the request is over (the client went away): nothing can be answered.
     */
    private void failed(Content.Chunk chunk) {
        if (Content.Chunk.isFailure(chunk, false)) {
            log.debug("Request body stalled: {}", chunk.getFailure().toString());
            timedOut();
            return;
        }
        body.close();
        callback.failed(chunk.getFailure());
    }

    private void timedOut() {
        body.close();
        // The rest of the body would follow: the connection cannot carry another request.
        response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        StoreHandler.writePlain(408, TIMEOUT_BODY, response, callback);
    }

    /** The body has ended (or was cut off): answer here if this thread may run the codec, else hand it off. */
    private void bodyEnded(boolean mayBlock) {
        if (mayBlock || handler.answersInline(body.size(), body.inMemory())) {
            answer();
            return;
        }
        try {
            request.getComponents().getExecutor().execute(new HandOff());
        } catch (RejectedExecutionException e) {
            body.close();
            log.warn("No thread free to answer {} {}: {}", request.getMethod(), path, e.toString());
            StoreHandler.writePlain(503, UNAVAILABLE_BODY, response, callback);
        }
    }

    private void answer() {
        CodecResponse answer;
        try {
            answer = handler.answer(request, uri, path, body.open());
        } finally {
            body.close();
        }
        StoreHandler.write(answer, response, callback);
    }

    /** The answer, run on the server's executor because the thread the body ended on must not block. */
    final class HandOff implements Runnable {
        @Override
        public void run() {
            try {
                answer();
            } catch (Throwable e) {
                // What Jetty does for a handler that throws: fail the request, which answers 500 or aborts it.
                body.close();
                log.error("Unexpected failure answering {} {}", request.getMethod(), path, e);
                callback.failed(e);
            }
        }
    }
}
