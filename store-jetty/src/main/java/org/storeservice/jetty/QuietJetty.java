package org.storeservice.jetty;

import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;

/**
 * What every Jetty server of this project shares (the endpoint's, the management port's, the shadow proxy's): they
 * say nothing about themselves, and stop when told.
 */
public final class QuietJetty {
    private QuietJetty() {
    }

    /**
     * Makes {@code jetty} stop only when told, and answer what its handlers do not with a bare error page.
     *
     * @param jetty the server to quieten
     */
    public static void quiet(Server jetty) {
        // Stopping is the host's call (see StoreServer#stop()); Jetty must not register a JVM shutdown hook of its own.
        jetty.setStopAtShutdown(false);
        // Jetty answers what the handlers do not (malformed HTTP, a stop that cuts a request off): with the status
        // and its reason alone, never a page naming the software, a message or a stack.
        jetty.setErrorHandler(new BareErrorHandler());
    }

    /**
     * How long a stopping server lets an idle keep-alive connection stay open, 100 ms: Jetty's default (1 s, applied
     * twice over by its idle checks) made every stop wait about 2 s for a client that merely kept its connection
     * open. Below about 10 ms Jetty's idle checks never fire and the stop waits for its whole time-out, so not less.
     */
    static final long SHUTDOWN_IDLE_TIMEOUT_MILLIS = 100;

    /**
     * Makes {@code connector} close idle connections at once when the server stops ({@link #SHUTDOWN_IDLE_TIMEOUT_MILLIS}).
     *
     * @param connector the connector to set
     */
    public static void closeIdleOnStop(AbstractConnector connector) {
        connector.setShutdownIdleTimeout(SHUTDOWN_IDLE_TIMEOUT_MILLIS);
    }

    /** {@return an HTTP configuration that sends neither {@code Server} nor {@code X-Powered-By}} */
    public static HttpConfiguration httpConfiguration() {
        HttpConfiguration http = new HttpConfiguration();
        // Say nothing about the software in every response; an attacker needs no version to look up.
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        // IIS (http.sys) takes a request line and headers of up to 16 KiB together (MaxRequestBytes); Jetty's
        // default is 8 KiB, which refused heads IIS served.
        http.setRequestHeaderSize(16 * 1024);
        return http;
    }
}
