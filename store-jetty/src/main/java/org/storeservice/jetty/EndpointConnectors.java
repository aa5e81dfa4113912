package org.storeservice.jetty;

import java.io.IOException;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;

/**
 * A front door's connectors, as its {@link FrontDoorSettings} say: plain HTTP on the port, or HTTPS on it with an
 * optional plain HTTP port beside it. Each has the accept queue asked for, closes idle connections, answers a trickled
 * request head with {@code 408} ({@link HeaderDeadline}) and, if asked, honours forwarded headers from trusted proxies
 * ({@link TrustedProxyCustomizer}). Shared by {@link StoreServer} and the shadow proxy.
 *
 * @param endpoint the connector on the settings' port
 * @param plain    the plain HTTP connector beside HTTPS, or {@code null}
 */
public record EndpointConnectors(ServerConnector endpoint, ServerConnector plain) {
    /** The largest buffer Jetty's default buffer pool keeps for reuse. */
    static final int INPUT_BUFFER_BYTES = 64 * 1024;

    /**
     * Adds the connectors to {@code jetty}.
     *
     * @param jetty the server they serve
     * @param settings where and how they listen
     * @param selectors selector threads per connector; {@code -1} for Jetty's choice
     * @param http the HTTP configuration to start from ({@link QuietJetty#httpConfiguration()} and the door's own)
     * @param honourForwarded whether {@link FrontDoorSettings#trustedProxies()}' forwarded headers are applied to the
     *     request (a server), rather than left for the handler to pass on (a proxy)
     * @return the connectors, added, not yet bound
     */
    public static EndpointConnectors add(Server jetty, FrontDoorSettings settings, int selectors, HttpConfiguration http,
            boolean honourForwarded) {
        if (!honourForwarded) {
            settings = withoutTrustedProxies(settings);
        }
        if (settings.tlsKeystore == null) {
            trustProxies(http, settings);
            return new EndpointConnectors(
                    add(jetty, settings, selectors, settings.port, httpConnections(http)), null);
        }
        HttpConfiguration https = new HttpConfiguration(http);
        // Jetty checks by default that the Host names the certificate, and answers 400 "Invalid SNI" where it does
        // not: to every client that calls by address (https://10.0.0.5/...) while skipping name checks, as many
        // legacy clients do. ASMX on IIS serves them, so the check is off unless asked for.
        SecureRequestCustomizer secure = new SecureRequestCustomizer();
        secure.setSniHostCheck(settings.tlsSniHostCheck);
        https.addCustomizer(secure);
        trustProxies(https, settings);
        EndpointTls tls = new EndpointTls(settings);
        ServerConnector endpoint = add(jetty, settings, selectors, settings.port,
                new SslConnectionFactory(tls, "http/1.1"), httpConnections(https));
        endpoint.addBean(new RefusedTlsHandshakes(tls::servedVersions, settings.tlsVersionRefusals, System::nanoTime));
        ServerConnector plain = null;
        if (settings.httpPort >= 0) {
            trustProxies(http, settings);
            plain = add(jetty, settings, selectors, settings.httpPort, httpConnections(http));
        }
        return new EndpointConnectors(endpoint, plain);
    }

    /**
     * HTTP/1.1 connections that read up to {@link #INPUT_BUFFER_BYTES} from the socket at a time, not Jetty's default
     * 8 KiB. Every read of a body is a read call, a chunk copied into the body buffer and released, and a demand for
     * more: fewer, larger reads took a quarter less CPU per 4 MiB upload, same run (BENCHMARKS.md, twelfth round).
     * Jetty takes the buffer from its pool for a read and gives it back once it is empty, so an idle or slow client
     * holds none between reads.
     */
    private static HttpConnectionFactory httpConnections(HttpConfiguration http) {
        HttpConnectionFactory factory = new HttpConnectionFactory(http);
        factory.setInputBufferSize(INPUT_BUFFER_BYTES);
        return factory;
    }

    private static FrontDoorSettings withoutTrustedProxies(FrontDoorSettings settings) {
        FrontDoorSettings copy = new FrontDoorSettings();
        settings.copyTo(copy);
        copy.trustedProxies = null;
        return copy;
    }

    private static void trustProxies(HttpConfiguration http, FrontDoorSettings settings) {
        if (settings.trustedProxies != null) {
            http.addCustomizer(new TrustedProxyCustomizer(settings.trustedProxies));
        }
    }

    private static ServerConnector add(Server jetty, FrontDoorSettings settings, int selectors, int port,
            ConnectionFactory... factories) {
        ServerConnector added = new ServerConnector(jetty, -1, selectors, factories);
        added.setHost(settings.host);
        added.setPort(port);
        added.setAcceptQueueSize(settings.acceptQueueSize);
        added.setIdleTimeout(settings.idleTimeout.toMillis());
        QuietJetty.closeIdleOnStop(added);
        added.addBean(new HeaderDeadline(settings.requestHeadersTimeout, added.getScheduler()));
        jetty.addConnector(added);
        return added;
    }

    /**
     * Binds each port now, before Jetty starts (which then uses them as they are), so that a port that cannot be bound
     * is named: the endpoint's, or the plain-HTTP one beside it.
     *
     * @throws ListenException naming the port that could not be bound
     */
    public void open() throws ListenException {
        open(endpoint, ListenException.Listener.ENDPOINT);
        if (plain != null) {
            open(plain, ListenException.Listener.PLAIN_HTTP);
        }
    }

    static void open(ServerConnector connector, ListenException.Listener listener) throws ListenException {
        try {
            connector.open();
        } catch (IOException e) {
            throw new ListenException(listener, connector.getHost(), connector.getPort(), e);
        }
    }

    /** Unbinds what {@link #open} bound, after a start that failed. */
    public void close() {
        endpoint.close();
        if (plain != null) {
            plain.close();
        }
    }
}
