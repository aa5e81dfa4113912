package org.storeservice.jetty;

import java.util.function.Supplier;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * The management port: health checks and whatever the host adds (metrics), on a Jetty server of its own, so
 * that it has threads of its own (a busy endpoint does not starve the health checks), starts before the
 * endpoint and stops after it (it answers "not ready" through both). {@link StoreServer} runs one; so can any
 * other server of a host (the shadow proxy does), with its own readiness.
 */
public final class ManagementServer {
    /** A few threads: scrapes and probes come a few per second at most. */
    private static final int MAX_THREADS = 8;

    private final Server jetty;
    private final ServerConnector connector;

    /**
     * A management server on {@code host}:{@code port} ({@code 0} for any free port), not yet started.
     *
     * @param host the address to listen on
     * @param port the port, or {@code 0} for any free one
     * @param notReadyReason why the server it reports on is not ready, or {@code null} when it is: what
     *     {@code /health/ready} answers
     * @param extra served after the health checks (metrics), or {@code null}
     */
    public ManagementServer(String host, int port, Supplier<String> notReadyReason, Handler extra) {
        QueuedThreadPool threads = new QueuedThreadPool(MAX_THREADS, 2);
        threads.setName("store-management");
        jetty = new Server(threads);
        QuietJetty.quiet(jetty);
        connector = new ServerConnector(jetty, 1, 1, new HttpConnectionFactory(QuietJetty.httpConfiguration()));
        QuietJetty.closeIdleOnStop(connector);
        connector.setHost(host);
        connector.setPort(port);
        jetty.addConnector(connector);
        Handler health = new HealthHandler(notReadyReason);
        jetty.setHandler(extra == null ? health : new Handler.Sequence(health, extra));
    }

    /**
     * Binds the port and starts.
     *
     * @throws ListenException if the port cannot be bound (as the management port)
     */
    public void start() throws Exception {
        EndpointConnectors.open(connector, ListenException.Listener.MANAGEMENT); // a busy port is named as this one
        jetty.start();
    }

    /**
     * Stops serving and closes the port.
     *
     * @throws Exception if Jetty fails to stop
     */
    public void stop() throws Exception {
        jetty.stop();
    }

    /** {@return the port it listens on, once started} */
    public int port() {
        return connector.getLocalPort();
    }
}
