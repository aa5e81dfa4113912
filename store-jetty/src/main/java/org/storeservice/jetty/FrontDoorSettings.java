package org.storeservice.jetty;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.eclipse.jetty.server.Handler;

/**
 * The options every front door shares, with their defaults, as {@link FrontDoorBuilder} checks and writes them: what
 * {@link EndpointConnectors} reads to listen, and what a door reads to start its management port and to stop. A door
 * holds its own copy, which nothing writes after it is built.
 */
public class FrontDoorSettings {
    int port = StoreServer.DEFAULT_PORT;
    String host = StoreServer.DEFAULT_HOST;
    /** The listen backlog of the endpoint's port (and of the plain HTTP port beside HTTPS). */
    int acceptQueueSize = StoreServer.DEFAULT_ACCEPT_QUEUE_SIZE;
    Duration idleTimeout = StoreServer.DEFAULT_IDLE_TIMEOUT;
    Duration requestHeadersTimeout = StoreServer.DEFAULT_REQUEST_HEADERS_TIMEOUT;
    Duration stopTimeout = StoreServer.DEFAULT_STOP_TIMEOUT;
    /** How long a stop serves on while readiness answers 503; only with a management port. */
    Duration drainTime = StoreServer.DEFAULT_DRAIN_TIME;
    /** Null for plain HTTP. */
    Path tlsKeystore;
    char[] tlsKeystorePassword;
    /** The TLS versions served, or null for the JDK's (TLS 1.2 and 1.3). */
    List<String> tlsProtocols;
    /** Cipher suites served after the default ones, or null for those {@link EndpointTls} picks by the versions. */
    List<String> tlsLegacyCipherSuites;
    /** Whether HTTPS refuses a request whose Host the certificate does not name (Jetty's SNI host check). */
    boolean tlsSniHostCheck;
    /** Told of each handshake refused for its version, or null (they are logged either way). */
    TlsVersionRefusals tlsVersionRefusals;
    /** Negative for none. */
    int httpPort = -1;
    AddressRanges trustedProxies;
    /** Negative for none. */
    int managementPort = -1;
    String managementHost = StoreServer.DEFAULT_MANAGEMENT_HOST;
    Handler managementHandler;

    /** Only this package makes them: each through a {@link FrontDoorBuilder}. */
    FrontDoorSettings() {
    }

    /** Copies these options into {@code copy} (the password too, as the host may wipe its array). */
    final void copyTo(FrontDoorSettings copy) {
        copy.port = port;
        copy.host = host;
        copy.acceptQueueSize = acceptQueueSize;
        copy.idleTimeout = idleTimeout;
        copy.requestHeadersTimeout = requestHeadersTimeout;
        copy.stopTimeout = stopTimeout;
        copy.drainTime = drainTime;
        copy.tlsKeystore = tlsKeystore;
        copy.tlsKeystorePassword = tlsKeystorePassword == null ? null : tlsKeystorePassword.clone();
        copy.tlsProtocols = tlsProtocols; // immutable lists
        copy.tlsLegacyCipherSuites = tlsLegacyCipherSuites;
        copy.tlsSniHostCheck = tlsSniHostCheck;
        copy.tlsVersionRefusals = tlsVersionRefusals;
        copy.httpPort = httpPort;
        copy.trustedProxies = trustedProxies;
        copy.managementPort = managementPort;
        copy.managementHost = managementHost;
        copy.managementHandler = managementHandler;
    }

    /** {@return the address listened on} */
    public final String host() {
        return host;
    }

    /** {@return the port asked for; {@code 0} for any free one} */
    public final int port() {
        return port;
    }

    /** {@return whether the port serves HTTPS} */
    public final boolean tls() {
        return tlsKeystore != null;
    }

    /** {@return how long a stop waits for requests in flight} */
    public final Duration stopTimeout() {
        return stopTimeout;
    }

    /**
     * {@return how long a stop first serves on while readiness answers 503: the drain time asked for with a management
     * port, else zero (nothing reads readiness)}
     */
    public final Duration drainTime() {
        return managementPort < 0 ? Duration.ZERO : drainTime;
    }

    /** {@return the senders whose forwarded headers are taken, or {@code null} for none} */
    public final AddressRanges trustedProxies() {
        return trustedProxies;
    }

    /**
     * {@return the management server these settings ask for, not started, or {@code null} for none}
     *
     * @param notReadyReason why the door is not ready, or {@code null} when it is: what {@code /health/ready} answers
     */
    public final ManagementServer managementServer(java.util.function.Supplier<String> notReadyReason) {
        return managementPort < 0 ? null
                : new ManagementServer(managementHost, managementPort, notReadyReason, managementHandler);
    }

    /** {@return the management port's address} */
    public final String managementHost() {
        return managementHost;
    }
}
