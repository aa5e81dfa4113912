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
 * endpoint and stops after it (it answers "not ready" through both).
 */
final class ManagementServer {
    /** A few threads: scrapes and probes come a few per second at most. */
    private static final int MAX_THREADS = 8;

    private final Server jetty;
    private final ServerConnector connector;

    ManagementServer(String host, int port, Supplier<String> notReadyReason, Handler extra) {
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

    void start() throws Exception {
        EndpointConnectors.open(connector, ListenException.Listener.MANAGEMENT); // a busy port is named as this one
        jetty.start();
    }

    void stop() throws Exception {
        jetty.stop();
    }

    int port() {
        return connector.getLocalPort();
    }
}
