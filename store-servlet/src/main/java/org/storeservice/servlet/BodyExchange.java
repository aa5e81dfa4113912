package org.storeservice.servlet;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.codec.CodecResponse;
import org.storeservice.codec.RequestBodyBuffer;
import org.storeservice.codec.StoreCodec;

/**
 * One request at the endpoint, from its body's first byte to its answer, as the Jetty adapter does it: the
 * body is read with Servlet async I/O as it arrives, no thread waiting for it, into the codec's
 * {@link RequestBodyBuffer}; once it has ended the codec answers on the container thread that reported the
 * end (it may block for the store: that is the container's pool); a write the store queues (SQLite) is answered
 * on a container thread once committed, with no thread waiting meanwhile. The buffer is closed as soon as the codec is
 * done with it, and on every way out before that (read failure, async timeout, completion).
 *
 * <p>The buffer keeps at most {@code maxRequestBytes + 1} bytes, enough for the codec's too-large fault; the
 * rest of such a body is read and dropped up to twice the limit, so that a client still sending gets the
 * fault, not a reset. A body refused on its Content-Length alone is not read when it is longer than that
 * bound or when the client waits for {@code 100 Continue} (reading would ask it to send a body nobody uses).
 *
 * <p>Where the registration does not support async (a container must then be told {@code asyncSupported}),
 * the same buffer is filled from the blocking stream instead, holding the thread: one path from body to codec
 * either way. All methods that touch the buffer are synchronized: the container may report a timeout on
 * another thread than the one reading.
 */
final class BodyExchange implements ReadListener, AsyncListener {
    private static final Logger log = LoggerFactory.getLogger(BodyExchange.class);
    private static final byte[] TIMEOUT_BODY = "Request Timeout".getBytes(StandardCharsets.UTF_8);
    private static final int READ_BYTES = 8192;

    private final StoreCodec codec;
    private final HttpServletRequest request;
    private final HttpServletResponse response;
    private final RequestBodyBuffer body;
    private final byte[] chunk = new byte[READ_BYTES];
    private ServletInputStream in;
    private AsyncContext async;
    /** Whether the exchange has answered or failed: nothing is read or written after. */
    private boolean done;

    BodyExchange(StoreCodec codec, HttpServletRequest request, HttpServletResponse response) {
        this.codec = codec;
        this.request = request;
        this.response = response;
        this.body = codec.newRequestBodyBuffer(request.getContentLengthLong());
    }

    /**
     * Starts reading, on the container's request thread, and returns: at once in async mode (the container
     * calls back as the body arrives), once answered otherwise.
     *
     * @param asyncTimeoutMillis the async timeout, see {@link StoreServlet#ASYNC_TIMEOUT_MILLIS}
     */
    synchronized void start(long asyncTimeoutMillis) throws IOException {
        if (body.answerWithoutReading(expectsContinue())) {
            answer(body.declaredTooLongToRead());
            return;
        }
        in = request.getInputStream();
        if (!request.isAsyncSupported()) {
            readBlocking();
            return;
        }
        async = request.startAsync();
        async.setTimeout(asyncTimeoutMillis);
        async.addListener(this);
        in.setReadListener(this);
    }

    private void readBlocking() {
        try {
            for (int n; !done && (n = in.read(chunk)) >= 0; ) {
                take(n);
            }
        } catch (IOException e) {
            failed(e);
            return;
        }
        answer(false);
    }

    /** The container: some of the body has arrived. */
    @Override
    public synchronized void onDataAvailable() throws IOException {
        while (!done && in.isReady()) {
            int n = in.read(chunk);
            if (n < 0) {
                return; // the container calls onAllDataRead next
            }
            take(n);
        }
    }

    @Override
    public synchronized void onAllDataRead() {
        answer(false);
    }

    @Override
    public synchronized void onError(Throwable failure) {
        failed(failure);
    }

    /** Holds {@code n} more bytes of {@link #chunk}; answers once enough was dropped past a full buffer. */
    private void take(int n) {
        try {
            body.append(ByteBuffer.wrap(chunk, 0, n));
        } catch (IOException | RuntimeException e) {
            log.warn("Could not hold the body of {} {}", request.getMethod(), request.getRequestURI(), e);
            done = true;
            body.close();
            respond(() -> StoreServlet.writeInternalError(response));
            return;
        }
        if (body.readEnough()) {
            answer(true); // cut off with the client still sending
        }
    }

    /**
     * The body has ended, or was cut off ({@code cutOff}: the connection cannot carry another request). The codec
     * answers on this container thread, which may block for the store; a write the store queues instead (SQLite's
     * group commit) leaves no thread waiting in async mode: its answer is written on a container thread
     * ({@link AsyncContext#start}) once the write is committed.
     */
    private void answer(boolean cutOff) {
        if (done) {
            return;
        }
        done = true;
        if (cutOff) {
            response.setHeader("Connection", "close");
        }
        CompletableFuture<CodecResponse> answer;
        try {
            answer = StoreServlet.answer(codec, request, body.open(), body.size()).toCompletableFuture();
        } catch (RuntimeException | Error e) {
            body.close();
            throw e;
        }
        if (answer.isDone() || async == null) {
            answered(answer.join()); // without async support this thread must answer before it returns
            return;
        }
        answer.thenAccept(queued -> {
            try {
                async.start(() -> answered(queued)); // not on the store's thread: the write may block
            } catch (IllegalStateException e) {
                log.debug("Async cycle of {} {} already over: {}", request.getMethod(), request.getRequestURI(), e.toString());
                synchronized (this) {
                    body.close();
                }
            }
        });
    }

    private synchronized void answered(CodecResponse answer) {
        body.close();
        respond(() -> StoreServlet.write(answer, response));
    }

    /** The body could not be read: it stalled past a timeout, or the client went away (then nothing arrives). */
    private void failed(Throwable failure) {
        if (done) {
            return;
        }
        done = true;
        body.close();
        log.debug("Request body of {} {} failed: {}", request.getMethod(), request.getRequestURI(), failure.toString());
        if (response.isCommitted()) {
            respond(() -> { });
            return;
        }
        // The rest of the body may still follow: the connection cannot carry another request.
        response.setHeader("Connection", "close");
        respond(() -> StoreServlet.writePlain(408, TIMEOUT_BODY, response));
    }

    /** Writes the answer (blocking: the answer is small), then ends the async cycle if there is one. */
    private void respond(Write write) {
        try {
            write.run();
        } catch (IOException e) {
            log.debug("Could not send the answer to {} {}: {}", request.getMethod(), request.getRequestURI(), e.toString());
        } finally {
            if (async != null) {
                try {
                    async.complete();
                } catch (IllegalStateException e) {
                    log.debug("Async cycle of {} {} already over: {}", request.getMethod(), request.getRequestURI(), e.toString());
                }
            }
        }
    }

    @Override
    public synchronized void onTimeout(AsyncEvent event) {
        failed(new TimeoutException("async timeout"));
    }

    @Override
    public synchronized void onError(AsyncEvent event) {
        failed(event.getThrowable() != null ? event.getThrowable() : new IOException("async error"));
    }

    @Override
    public synchronized void onComplete(AsyncEvent event) {
        body.close(); // idempotent: a way out the others did not see
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
    }

    private boolean expectsContinue() {
        for (String value : Collections.list(request.getHeaders("Expect"))) {
            if (value.trim().equalsIgnoreCase("100-continue")) {
                return true;
            }
        }
        return false;
    }

    @FunctionalInterface
    private interface Write {
        void run() throws IOException;
    }
}
