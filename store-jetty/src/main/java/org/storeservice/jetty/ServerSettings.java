package org.storeservice.jetty;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.server.Server;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.StoreLimits;
import org.storeservice.api.storage.Storage;
import org.storeservice.codec.StoreCodec;

/**
 * Every option of a {@link StoreServer} with its default: what {@link StoreServer.Builder} checks and writes, and
 * what the server and its assembly ({@link EndpointJetty}, {@link EndpointConnectors}) read. A server holds its
 * own {@link #copy()}, which nothing writes after {@link StoreServer.Builder#build()}.
 */
final class ServerSettings {
    int port = StoreServer.DEFAULT_PORT;
    String host = StoreServer.DEFAULT_HOST;
    /** The listen backlog of the endpoint's port (and of the plain HTTP port beside HTTPS). */
    int acceptQueueSize = StoreServer.DEFAULT_ACCEPT_QUEUE_SIZE;
    String endpointPath = StoreCodec.DEFAULT_ENDPOINT_PATH;
    /**
     * The codec's own options (namespace, limits, protocols, WSDL, observer), each passed on as given, in order, to
     * the codec's builder when the server starts: the codec needs the store, which exists only once the storage
     * is open. So the codec alone holds their defaults and checks.
     */
    Consumer<StoreCodec.Builder> codecOptions = codec -> { };
    /** The host's storage, never closed by the server; or null, and then {@link #storageUri} is opened. */
    Storage storage;
    String storageUri;
    StoreLimits storeLimits = StoreLimits.defaults();
    OverwritePolicy overwritePolicy = OverwritePolicy.REPLACE;
    Duration idleTimeout = StoreServer.DEFAULT_IDLE_TIMEOUT;
    long minRequestDataRate = StoreHandler.DEFAULT_MIN_REQUEST_DATA_RATE;
    Duration stopTimeout = StoreServer.DEFAULT_STOP_TIMEOUT;
    Duration drainTime = StoreServer.DEFAULT_DRAIN_TIME;
    Duration requestHeadersTimeout = StoreServer.DEFAULT_REQUEST_HEADERS_TIMEOUT;
    /** Null for plain HTTP. */
    Path tlsKeystore;
    char[] tlsKeystorePassword;
    /** The TLS versions served, or null for the JDK's (TLS 1.2 and 1.3). */
    List<String> tlsProtocols;
    /** Cipher suites served after the default ones, or null for those {@link EndpointTls} picks by the versions. */
    List<String> tlsLegacyCipherSuites;
    /** Whether HTTPS refuses a request whose Host the certificate does not name (Jetty's SNI host check). */
    boolean tlsSniHostCheck;
    /** Negative for none. */
    int httpPort = -1;
    RequestLog.Writer accessLog;
    BasicUsers users;
    String realm = "Store";
    boolean publicMetadata;
    AddressRanges allowFrom;
    AddressRanges trustedProxies;
    /** Negative for none. */
    int managementPort = -1;
    String managementHost = StoreServer.DEFAULT_MANAGEMENT_HOST;
    Handler managementHandler;
    Duration readinessTimeout = StoreServer.DEFAULT_READINESS_TIMEOUT;
    Consumer<Server> jettyCustomizer;

    /** A copy that later changes to this one do not reach (the password is copied too, as the host may wipe its array). */
    ServerSettings copy() {
        ServerSettings copy = new ServerSettings();
        copy.port = port;
        copy.host = host;
        copy.acceptQueueSize = acceptQueueSize;
        copy.endpointPath = endpointPath;
        copy.codecOptions = codecOptions; // immutable: each option makes a new chain
        copy.storage = storage;
        copy.storageUri = storageUri;
        copy.storeLimits = storeLimits;
        copy.overwritePolicy = overwritePolicy;
        copy.idleTimeout = idleTimeout;
        copy.minRequestDataRate = minRequestDataRate;
        copy.stopTimeout = stopTimeout;
        copy.drainTime = drainTime;
        copy.requestHeadersTimeout = requestHeadersTimeout;
        copy.tlsKeystore = tlsKeystore;
        copy.tlsKeystorePassword = tlsKeystorePassword == null ? null : tlsKeystorePassword.clone();
        copy.tlsProtocols = tlsProtocols; // immutable lists
        copy.tlsLegacyCipherSuites = tlsLegacyCipherSuites;
        copy.tlsSniHostCheck = tlsSniHostCheck;
        copy.httpPort = httpPort;
        copy.accessLog = accessLog;
        copy.users = users;
        copy.realm = realm;
        copy.publicMetadata = publicMetadata;
        copy.allowFrom = allowFrom;
        copy.trustedProxies = trustedProxies;
        copy.managementPort = managementPort;
        copy.managementHost = managementHost;
        copy.managementHandler = managementHandler;
        copy.readinessTimeout = readinessTimeout;
        copy.jettyCustomizer = jettyCustomizer;
        return copy;
    }
}
