package org.storeservice.jetty;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
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
import org.storeservice.codec.StoreCodec;

/**
 * One request at the endpoint, from its body's first byte to its answer: reads the body as Jetty receives it,
 * never waiting for it (between reads this object is Jetty's demand callback), into the codec's
 * {@link RequestBodyBuffer}; once the body has ended, has the codec answer ({@link StoreCodec#handleAsync}), on
 * this thread if the body is small and in memory, else on the server's executor, and writes the answer from the
 * thread that completes it (for a queued write, the store's). The buffer is closed as soon as the codec is done
 * with it, and on every way out before that.
 *
 * <p>Jetty calls the demand callback on a thread that may block when it {@linkplain #getInvocationType()
 * declares} so: it does while the body is in a file. Each call only reads what has arrived, so even then no
 * thread waits for the client.
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
    private final long startNanos = System.nanoTime();
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
    }

    /** Starts reading, on the thread Jetty called the handler on, which must not block. */
    void start() {
        if (body.answerWithoutReading(request.getHeaders().contains(HttpHeader.EXPECT, "100-continue"))) {
            bodyEnded(false);
            return;
        }
        read(false);
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
                // Appending to a file, and answering a body in a file, may block.
                blockingDemand = !body.inMemory();
                request.demand(this);
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                failed(chunk);
                return;
            }
            boolean last = chunk.isLast();
            try {
                body.append(chunk.getByteBuffer());
            } catch (IOException | RuntimeException e) {
                body.close();
                log.warn("Could not hold the body of {} {}", request.getMethod(), path, e);
                StoreHandler.writeInternalError(response, callback);
                return;
            } finally {
                chunk.release();
            }
            if (last || body.readEnough()) {
                bodyEnded(mayBlock);
                return;
            }
            if (minimumRate.tooSlow(body.received(), System.nanoTime() - startNanos)) {
                log.debug("Request body too slow: {} bytes in {} ms", body.received(),
                        (System.nanoTime() - startNanos) / 1_000_000);
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

    /**
     * The body has ended (or was cut off): answer here if this thread may block, or if the body is small and in
     * memory (the codec then only computes here, and hands what may block to the executor); else hand it off.
     */
    private void bodyEnded(boolean mayBlock) {
        if (mayBlock) {
            answer(Runnable::run);
            return;
        }
        Executor executor = request.getComponents().getExecutor();
        if (handler.answersInline(body.size(), body.inMemory())) {
            answer(executor);
            return;
        }
        try {
            executor.execute(new HandOff());
        } catch (RejectedExecutionException e) {
            body.close();
            log.warn("No thread free to answer {} {}: {}", request.getMethod(), path, e.toString());
            StoreHandler.writePlain(503, UNAVAILABLE_BODY, response, callback);
        }
    }

    /** Has the codec answer, and writes its answer once it is there; {@code blockingWork} runs what may block. */
    private void answer(Executor blockingWork) {
        CompletionStage<CodecResponse> answer;
        try {
            answer = handler.answer(request, uri, path, body.open(), body.size(), blockingWork);
        } catch (Throwable e) {
            body.close();
            throw e;
        }
        answer.whenComplete((response, failure) -> {
            body.close();
            try {
                StoreHandler.write(response, this.response, callback);
            } catch (RuntimeException e) {
                // The stage would swallow it, and the request would hang until the idle timeout: fail it instead.
                log.error("Could not write the answer to {} {}", request.getMethod(), path, e);
                callback.failed(e);
            }
        });
    }

    /** The answer, run on the server's executor because the thread the body ended on must not block. */
    final class HandOff implements Runnable {
        @Override
        public void run() {
            try {
                answer(Runnable::run); // this thread may block
            } catch (Throwable e) {
                // What Jetty does for a handler that throws: fail the request, which answers 500 or aborts it.
                log.error("Unexpected failure answering {} {}", request.getMethod(), path, e);
                callback.failed(e);
            }
        }
    }
}
