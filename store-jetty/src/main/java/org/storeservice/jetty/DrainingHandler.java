package org.storeservice.jetty;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.component.Graceful;

/**
 * The outermost handler: counts the requests in flight so that a stop waits for them, and while the server stops it
 * keeps answering, closing each connection after its answer ({@code Connection: close}) instead of refusing.
 *
 * <p>Jetty's {@code GracefulHandler} answers {@code 503} to a request that arrives during a stop on a connection
 * already open; a client that does not retry (a legacy one) loses that write. Here such a request is served like any
 * other, and its connection then closed, so that every connection ends after an answer, never with a request on it.
 * {@link #drain} does the same before the stop begins (the lame-duck phase, while load balancers notice readiness
 * turning 503), so that clients' kept-alive connections are closed by answers rather than by the stop. Shared by
 * {@link StoreServer} and the shadow proxy.
 */
public final class DrainingHandler extends Handler.Wrapper implements Graceful {
    private final AtomicLong inFlight = new AtomicLong();
    private volatile boolean draining;
    private volatile CompletableFuture<Void> shutdown;

    /**
     * Wraps the door's handlers.
     *
     * @param handler the handler that answers every request
     */
    public DrainingHandler(Handler handler) {
        super(handler);
    }

    /** From now on, every answer closes its connection. */
    public void drain() {
        draining = true;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        Handler next = getHandler();
        if (next == null || !isStarted()) {
            return false;
        }
        if (draining || shutdown != null) {
            response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        }
        inFlight.incrementAndGet();
        Callback counted = Callback.from(callback, this::ended);
        boolean handled;
        try {
            handled = next.handle(request, response, counted);
        } catch (Throwable t) {
            ended();
            throw t;
        }
        if (!handled) {
            ended();
        }
        return handled;
    }

    private void ended() {
        if (inFlight.decrementAndGet() == 0) {
            CompletableFuture<Void> stopping = shutdown;
            if (stopping != null) {
                stopping.complete(null);
            }
        }
    }

    /** Completes once no request is in flight; requests still arriving are served, and close their connection. */
    @Override
    public CompletableFuture<Void> shutdown() {
        CompletableFuture<Void> stopping = shutdown;
        if (stopping == null) {
            stopping = new CompletableFuture<>();
            shutdown = stopping;
            if (inFlight.get() == 0) {
                stopping.complete(null);
            }
        }
        return stopping;
    }

    @Override
    public boolean isShutdown() {
        CompletableFuture<Void> stopping = shutdown;
        return stopping != null && stopping.isDone();
    }

    @Override
    protected void doStop() throws Exception {
        super.doStop();
        shutdown = null;
        draining = false;
    }

    /** Requests being answered now; for tests. */
    long inFlight() {
        return inFlight.get();
    }
}
