package org.storeservice.jetty;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.server.CustomRequestLog;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.server.Server;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.StoreLimits;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StorageProbe;
import org.storeservice.api.storage.Storages;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.Protocols;
import org.storeservice.codec.RequestObserver;
import org.storeservice.codec.StoreCodec;

/**
 * A whole Jetty server that serves the Store endpoint and nothing else: for hosts that want a server rather
 * than a {@link StoreHandler} to mount in their own.
 *
 * <pre>{@code
 * try (StoreServer server = StoreServer.builder().port(0).storageUri("memory:").build().start()) {
 *     URI endpoint = server.endpointUri();   // http://127.0.0.1:PORT/API/Store.asmx
 *     ...
 * }
 * }</pre>
 *
 * <p><b>Storage ownership.</b> Storage opened from a URI ({@link Builder#storageUri(String)}) is opened by
 * {@link #start()} and closed by {@link #stop()}. A {@link Storage} instance passed in
 * ({@link Builder#storage(Storage)}) stays the host's: the server never closes it.
 *
 * <p><b>Stopping.</b> {@link #stop()} first stops accepting connections, then waits up to the stop timeout for
 * requests in flight to finish, so that every write a client was told succeeded is stored and no write is
 * cut in half; a request that arrives on an already open connection meanwhile gets {@code 503}. Requests
 * still running when the timeout elapses are cut off (their writes either complete or fail whole, as the
 * storage is atomic) and the fact is logged.
 *
 * <p><b>Slow clients.</b> No thread waits for a client: request bodies are collected as they arrive (see
 * {@link StoreHandler}), so a slow client costs a connection and a little memory. A connection with no traffic
 * for the idle timeout is closed; a request head still arriving after the header timeout, and a body arriving
 * slower than the minimum data rate, get {@code 408} and the connection is closed. Together they bound how
 * long any client can hold a connection.
 *
 * <p><b>Operating it</b> (each off unless asked for): HTTPS ({@link Builder#tls}), an access log
 * ({@link Builder#accessLog}), Basic authentication ({@link Builder#users}), a client address allow-list
 * ({@link Builder#allowFrom}), forwarded headers from trusted proxies ({@link Builder#trustedProxies}), and a
 * management port with health checks and the host's own handlers such as metrics ({@link Builder#managementPort}).
 * Left off, none of them adds a handler, a customizer or any work to a request.
 *
 * <p>Thread-safe. Starts once; after {@link #stop()} it cannot be started again.
 */
public final class StoreServer implements AutoCloseable {
    // One job, the lifecycle (start, stop, ports, readiness), plus the public Builder and its options' Javadoc;
    // the values are in ServerSettings, Jetty's assembly in EndpointJetty and EndpointConnectors, the storage's
    // opening in StorageOpener, the management port in ManagementServer.
    private static final Logger log = LoggerFactory.getLogger(StoreServer.class);

    /** The default port. */
    public static final int DEFAULT_PORT = 8080;
    /** The default bind address: loopback only, so that nothing is exposed unless asked for. */
    public static final String DEFAULT_HOST = "127.0.0.1";
    /**
     * The default accept queue, 4096 connections: the listen backlog, where the kernel keeps connections it has
     * completed until the server accepts them. When every client of a service is sent to a new server at once (the
     * routing change of a migration, a load balancer's failover) thousands of connects arrive within milliseconds; once
     * the queue is full the kernel drops further SYNs and each of those clients waits for its retransmit, a whole
     * second. The JDK's default is 50 (nginx's 511). 4096 is Linux's own default ceiling ({@code net.core.somaxconn}
     * since 5.4), which caps any larger value; a queued connection costs kernel memory only while it waits.
     */
    public static final int DEFAULT_ACCEPT_QUEUE_SIZE = 4096;
    /**
     * The cipher suites served beside TLS 1.0 and 1.1 unless others are named ({@link Builder#tlsLegacyCipherSuites}):
     * ECDHE key exchange (forward secrecy) with AES in CBC mode and SHA-1 MACs, the strongest those versions have and
     * what their clients offer (Windows' Schannel from Vista and Server 2008 on, which .NET Framework uses; OpenSSL 1.0;
     * Java 7), in the order of Mozilla's "old" server configuration. Clients with neither ECDHE nor AES (Windows XP,
     * Server 2003) are not served.
     */
    public static final List<String> DEFAULT_TLS_LEGACY_CIPHER_SUITES = List.of(
            "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
            "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA");
    /** The default idle timeout: Jetty's own default, well above any pause of a working client. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofSeconds(30);
    /** The default stop timeout: long enough for any normal write, well inside the 30 s orchestrators allow. */
    public static final Duration DEFAULT_STOP_TIMEOUT = Duration.ofSeconds(10);
    /**
     * The default drain time, 5 s: how long a stopping server with a management port answers readiness 503 while it
     * still serves, before it stops taking connections. A load balancer that checks every second and takes a server
     * out after two failures (HAProxy's {@code inter 1s fall 2}) has stopped sending by then, with room to spare.
     */
    public static final Duration DEFAULT_DRAIN_TIME = Duration.ofSeconds(5);
    /**
     * The default request header timeout, 20 s from a request head's first byte to its last: a head is a few
     * hundred bytes that any working client sends at once, yet each byte restarts the idle timeout, so
     * without it a client trickling its headers holds a connection forever.
     */
    public static final Duration DEFAULT_REQUEST_HEADERS_TIMEOUT = Duration.ofSeconds(20);
    /** The default management bind address: loopback, so that metrics and health stay on the host unless asked. */
    public static final String DEFAULT_MANAGEMENT_HOST = "127.0.0.1";
    /** The default time the storage has to answer the readiness check's read before the server counts as not ready. */
    public static final Duration DEFAULT_READINESS_TIMEOUT = Duration.ofSeconds(2);
    /**
     * The access log's line: Jetty's extended NCSA format (client, user, time, request line, status, bytes,
     * Referer, User-Agent), then the binding, the operation and the milliseconds taken.
     */
    public static final String ACCESS_LOG_FORMAT = CustomRequestLog.EXTENDED_NCSA_FORMAT
            + " %{" + StoreHandler.BINDING_ATTRIBUTE + "}attr %{" + StoreHandler.OPERATION_ATTRIBUTE + "}attr %{ms}T";

    /**
     * NEW, then STARTING while start() runs, SERVING once it succeeded, DRAINING while stop() lets load balancers see
     * readiness turn 503, STOPPED once the stop itself began (or start failed).
     */
    private enum State { NEW, STARTING, SERVING, DRAINING, STOPPED }

    private final ServerSettings config;
    /** Written under the lock; read without it by the readiness check. */
    private volatile State state = State.NEW;
    /** Whether the stop timeout cut off requests still in flight. */
    private boolean cutOff;
    private Server server;
    private EndpointConnectors connectors;
    private DrainingHandler draining;
    private ManagementServer management;
    private volatile StorageProbe probe;
    private Storage ownedStorage;

    private StoreServer(ServerSettings config) {
        this.config = config;
    }

    /** {@return a builder of a server, starting from the defaults} */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Opens the storage (if given by URI), binds the port and starts serving.
     *
     * @return this server, started
     * @throws ListenException if one of the ports could not be bound (it says which)
     * @throws IOException if the storage could not be opened
     * @throws IllegalArgumentException if the storage URI, endpoint path or namespace is invalid
     * @throws IllegalStateException if the server was already started or stopped, or if this JVM will not negotiate
     *         a TLS version asked for ({@link Builder#tlsProtocols})
     */
    public synchronized StoreServer start() throws IOException {
        if (state != State.NEW) {
            throw new IllegalStateException("StoreServer can be started once; it is " + state);
        }
        state = State.STARTING;
        StorageOpener opening = null;
        try {
            if (config.managementPort >= 0) {
                // First, so that a load balancer sees "not ready" while the storage opens.
                management = new ManagementServer(config.managementHost, config.managementPort,
                        this::notReadyReason, config.managementHandler);
                management.start();
            }
            Storage storage = config.storage;
            if (storage == null) {
                opening = StorageOpener.start(config.storageUri); // only once it runs: a failure below waits for it
            }
            EndpointJetty jetty = new EndpointJetty(config); // not started: nothing to stop if the storage fails to open
            if (opening != null) {
                ownedStorage = opening.await();
                storage = ownedStorage;
            }
            jetty.serve(storage);
            server = jetty.server();
            connectors = jetty.connectors();
            draining = jetty.draining();
            if (config.jettyCustomizer != null) {
                config.jettyCustomizer.accept(server);
            }
            connectors.open();
            server.start();
            if (management != null) {
                probe = new StorageProbe(storage, config.readinessTimeout);
            }
            state = State.SERVING;
        } catch (IOException | RuntimeException | Error e) {
            abandonStart(opening);
            throw e;
        } catch (Exception e) { // Jetty's start() declares Exception
            abandonStart(opening);
            throw new IOException("Could not start the Store server on " + config.host + ':' + config.port, e);
        }
        log.info("Store endpoint listening at {}", endpointUri());
        if (connectors.plain() != null) {
            log.info("Plain HTTP also on port {}", connectors.plain().getLocalPort());
        }
        if (management != null) {
            log.info("Management port {} on {}", management.port(), config.managementHost);
        }
        return this;
    }

    /** A start that failed: closes what it opened (a storage still opening included) and stops what it started. */
    private void abandonStart(StorageOpener opening) {
        if (opening != null && ownedStorage == null) {
            ownedStorage = opening.openedAnyway(); // so that stop() closes what was opened
        }
        if (connectors != null) {
            connectors.close(); // bound by connectors.open(), and Jetty never started them
        }
        stop();
    }

    /** Why the server is not ready for requests, or {@code null} when it is (the readiness check). */
    private String notReadyReason() {
        return switch (state) {
            case SERVING -> probe == null ? "starting" : probe.problem().orElse(null);
            case DRAINING, STOPPED -> "stopping";
            default -> "starting";
        };
    }

    /**
     * Stops gracefully, in stages. With a management port, readiness answers 503 at once while the endpoint goes on
     * serving every request for the drain time ({@link Builder#drainTime}), so that load balancers stop sending first;
     * each answer then closes its connection. Then it stops accepting connections, answers the requests in flight and
     * any that still arrive on open connections (each closing its connection), closes idle connections, waits up to
     * the stop timeout, and closes the storage if this server opened it. No request is refused because the server is
     * stopping. Harmless to call twice, or before {@link #start()}.
     *
     * @return {@code false} if requests still in flight at the stop timeout were cut off (logged), {@code true} if
     *     every request finished (or there was nothing to stop)
     */
    public boolean stop() {
        if (drainFirst()) {
            try {
                Thread.sleep(config.drainTime.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // stop now: the one who interrupted wants it over
            }
        }
        return stopNow();
    }

    /** Starts the drain if this server serves and has a drain to make; {@code true} if the caller must wait it out. */
    private synchronized boolean drainFirst() {
        if (state != State.SERVING || management == null || config.drainTime.isZero()) {
            return false;
        }
        state = State.DRAINING;
        draining.drain();
        log.info("Draining: readiness answers 503; serving on for {}, each answer closing its connection",
                seconds(config.drainTime));
        return true;
    }

    private synchronized boolean stopNow() {
        if (state == State.STOPPED) {
            return !cutOff;
        }
        boolean served = state == State.SERVING || state == State.DRAINING; // a failed start stops without a word
        state = State.STOPPED;
        if (served) {
            log.info("Stopping: no new connections; waiting up to {} for requests in flight", seconds(config.stopTimeout));
            try {
                server.stop();
            } catch (TimeoutException e) {
                cutOff = true;
                log.warn("Stop timeout of {} elapsed with requests still in flight; they were cut off",
                        seconds(config.stopTimeout));
            } catch (Exception e) {
                log.warn("Error while stopping the Store server", e);
            }
        }
        if (management != null) {
            try {
                management.stop();
            } catch (Exception e) {
                log.warn("Error while stopping the management port", e);
            }
        }
        if (probe != null) {
            probe.close();
        }
        if (ownedStorage != null) {
            try {
                ownedStorage.close();
            } catch (IOException | RuntimeException e) {
                // the storage itself, not its URI: a PostgreSQL URI may carry a password
                log.warn("Error while closing storage {}", ownedStorage, e);
            }
        }
        if (served) {
            log.info("Stopped");
        }
        return !cutOff;
    }

    /** A duration as logs say it: {@code 10s}, {@code 0.5s}, rather than ISO-8601's {@code PT10S}. */
    static String seconds(Duration duration) {
        return java.math.BigDecimal.valueOf(duration.toNanos(), 9).stripTrailingZeros().toPlainString() + "s";
    }

    /** The same as {@link #stop()}. */
    @Override
    public void close() {
        stop();
    }

    /**
     * {@return the port the server listens on}: the one asked for, or the one the system chose if {@code 0} was asked.
     *
     * @throws IllegalStateException if the server is not running
     */
    public synchronized int port() {
        if (state != State.SERVING && state != State.DRAINING) {
            throw new IllegalStateException("StoreServer is " + state + ", not serving");
        }
        return connectors.endpoint().getLocalPort();
    }

    /**
     * {@return the plain HTTP port served beside the HTTPS one ({@link Builder#httpPort})}
     *
     * @throws IllegalStateException if the server is not running or has no such port
     */
    public synchronized int httpPort() {
        port(); // checks the state
        if (connectors.plain() == null) {
            throw new IllegalStateException("No plain HTTP port beside HTTPS was configured");
        }
        return connectors.plain().getLocalPort();
    }

    /**
     * {@return the management port (health checks, and the host's handlers such as metrics)}
     *
     * @throws IllegalStateException if the server is not running or has no management port
     */
    public synchronized int managementPort() {
        port(); // checks the state
        if (management == null) {
            throw new IllegalStateException("No management port was configured");
        }
        return management.port();
    }

    /**
     * {@return the endpoint's full URL}, for example {@code http://127.0.0.1:8080/API/Store.asmx} ({@code https} with
     * TLS). A wildcard bind address (listen everywhere) is given as {@code localhost}, which always reaches it.
     *
     * @throws IllegalStateException if the server is not running
     */
    public synchronized URI endpointUri() {
        String host = isWildcard(config.host) ? "localhost" : config.host;
        try {
            return new URI(config.tlsKeystore != null ? "https" : "http", null, host, port(), config.endpointPath, null, null);
        } catch (URISyntaxException e) {
            throw new IllegalStateException("Cannot form the endpoint URI from " + host + " and " + config.endpointPath, e);
        }
    }

    private static boolean isWildcard(String host) {
        return host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]") || host.equals("0:0:0:0:0:0:0:0");
    }

    @Override
    public synchronized String toString() {
        return "StoreServer{" + config.host + ':' + config.port + config.endpointPath + ", " + state + '}';
    }

    /**
     * Configures a {@link StoreServer}; every setting has a default except the storage. The options every front door
     * shares (ports, address, time-outs, HTTPS, management port) are {@link FrontDoorBuilder}'s. Not thread-safe.
     */
    public static final class Builder extends FrontDoorBuilder<Builder> {
        /** What the setters write, the front door's options among them; {@link #build()} hands the server a copy. */
        private final ServerSettings settings;

        private Builder() {
            this(new ServerSettings());
        }

        private Builder(ServerSettings settings) {
            super(settings);
            this.settings = settings;
        }

        /**
         * The endpoint path; default {@value StoreCodec#DEFAULT_ENDPOINT_PATH}. Checked by the codec.
         *
         * @param endpointPath the path clients call
         * @return this builder
         */
        public Builder endpointPath(String endpointPath) {
            settings.endpointPath = Objects.requireNonNull(endpointPath, "endpointPath");
            return this;
        }

        /**
         * The service's XML namespace; default {@value StoreCodec#DEFAULT_NAMESPACE}.
         *
         * @param namespace the namespace URI
         * @return this builder
         */
        public Builder namespace(String namespace) {
            Objects.requireNonNull(namespace, "namespace");
            return codec(codec -> codec.namespace(namespace));
        }

        /**
         * Storage the host owns: the server uses it and never closes it. Replaces any {@link #storageUri}.
         *
         * @param storage the storage, which the host keeps owning
         * @return this builder
         */
        public Builder storage(Storage storage) {
            settings.storage = Objects.requireNonNull(storage, "storage");
            settings.storageUri = null;
            return this;
        }

        /**
         * Storage the server opens with {@link Storages#open(String)} on start and closes on stop, for example
         * {@code memory:}. Replaces any {@link #storage(Storage)}.
         *
         * @param storageUri the storage's URI, as {@link Storages#open(String)} takes it
         * @return this builder
         */
        public Builder storageUri(String storageUri) {
            settings.storageUri = Objects.requireNonNull(storageUri, "storageUri");
            settings.storage = null;
            return this;
        }

        /**
         * Limits on keys and values; default {@link StoreLimits#defaults()}.
         *
         * @param storeLimits the limits
         * @return this builder
         */
        public Builder storeLimits(StoreLimits storeLimits) {
            settings.storeLimits = Objects.requireNonNull(storeLimits, "storeLimits");
            return this;
        }

        /**
         * What a write to an existing key does; default {@link OverwritePolicy#REPLACE}.
         *
         * @param overwritePolicy replace the value, or reject the write
         * @return this builder
         */
        public Builder overwritePolicy(OverwritePolicy overwritePolicy) {
            settings.overwritePolicy = Objects.requireNonNull(overwritePolicy, "overwritePolicy");
            return this;
        }

        /**
         * Limits on requests, among them the request size; default {@link CodecLimits#defaults()}.
         *
         * @param codecLimits the limits
         * @return this builder
         */
        public Builder codecLimits(CodecLimits codecLimits) {
            Objects.requireNonNull(codecLimits, "codecLimits");
            return codec(codec -> codec.limits(codecLimits));
        }

        /**
         * Which of ASMX's protocols are on, as web.config's {@code <webServices><protocols>}; default
         * {@link Protocols#all()}. See {@link StoreCodec.Builder#protocols}.
         *
         * @param protocols the protocols that are on
         * @return this builder
         */
        public Builder protocols(Protocols protocols) {
            Objects.requireNonNull(protocols, "protocols");
            return codec(codec -> codec.protocols(protocols));
        }

        /**
         * An operator's own WSDL to serve instead of the generated one, addresses rewritten per request;
         * {@code null} (the default) serves the generated one. Checked when the server starts: see
         * {@link StoreCodec.Builder#wsdl(String)}.
         *
         * @param document the WSDL, or {@code null}
         * @return this builder
         */
        public Builder wsdl(String document) {
            return codec(codec -> codec.wsdl(document));
        }

        /**
         * The slowest accepted average request body rate, in bytes per second, counted after the body's first
         * 10 seconds; {@code 0} for no minimum. A body arriving slower gets {@code 408}. It holds no thread
         * either way, but a connection, and its body's buffer. Default
         * {@value StoreHandler#DEFAULT_MIN_REQUEST_DATA_RATE}.
         *
         * @param bytesPerSecond the rate; {@code 0} for no minimum
         * @return this builder
         */
        public Builder minRequestDataRate(long bytesPerSecond) {
            if (bytesPerSecond < 0) {
                throw new IllegalArgumentException("minRequestDataRate must not be negative: " + bytesPerSecond);
            }
            settings.minRequestDataRate = bytesPerSecond;
            return this;
        }

        /**
         * Writes one line per request in {@link StoreServer#ACCESS_LOG_FORMAT} (extended NCSA with the
         * User-Agent, the binding and the operation) to {@code writer}, for example Jetty's
         * {@link org.eclipse.jetty.server.RequestLogWriter} for a file. Off by default.
         *
         * @param writer where the lines go
         * @return this builder
         */
        public Builder accessLog(RequestLog.Writer writer) {
            settings.accessLog = Objects.requireNonNull(writer, "writer");
            return this;
        }

        /**
         * Requires HTTP Basic authentication as one of {@code users} (see {@link BasicAuthHandler}); requests
         * without valid credentials get {@code 401} before their body is read. Off by default.
         *
         * @param users who may call, and their password hashes
         * @return this builder
         */
        public Builder users(BasicUsers users) {
            settings.users = Objects.requireNonNull(users, "users");
            return this;
        }

        /**
         * The realm named in the {@code 401} challenge; default {@code Store}.
         *
         * @param realm the realm
         * @return this builder
         */
        public Builder realm(String realm) {
            settings.realm = Objects.requireNonNull(realm, "realm");
            return this;
        }

        /**
         * With {@link #users}: whether the WSDL, disco and help pages are served without credentials; default no.
         *
         * @param publicMetadata whether the metadata pages are served without credentials
         * @return this builder
         */
        public Builder publicMetadata(boolean publicMetadata) {
            settings.publicMetadata = publicMetadata;
            return this;
        }

        /**
         * Serves only clients whose address is in {@code ranges}; others get {@code 403}. Off by default.
         *
         * @param ranges the address ranges let through
         * @return this builder
         */
        public Builder allowFrom(AddressRanges ranges) {
            settings.allowFrom = Objects.requireNonNull(ranges, "ranges");
            return this;
        }

        /**
         * How long the readiness check waits for the storage's answer; default 2 s.
         *
         * @param readinessTimeout the time-out
         * @return this builder
         */
        public Builder readinessTimeout(Duration readinessTimeout) {
            settings.readinessTimeout = positive(readinessTimeout, "readinessTimeout");
            return this;
        }

        /**
         * Told of every request the codec answers (see {@link RequestObserver}), for example
         * {@code store-micrometer}'s {@code StoreMetrics}. None by default: then no clock is read per request.
         *
         * @param observer told of each answered request
         * @return this builder
         */
        public Builder requestObserver(RequestObserver observer) {
            Objects.requireNonNull(observer, "observer");
            return codec(codec -> codec.observer(observer));
        }

        /**
         * Called with the endpoint's Jetty server, fully assembled, just before it starts: to add beans such as
         * metrics binders for its thread pool and connectors. Not for changing its handlers.
         *
         * @param customizer called with the server
         * @return this builder
         */
        public Builder jettyCustomizer(Consumer<Server> customizer) {
            settings.jettyCustomizer = Objects.requireNonNull(customizer, "customizer");
            return this;
        }

        /**
         * {@return a server with this configuration, not yet started}
         *
         * <p>The endpoint path, namespace and an operator's WSDL are checked by the codec when the server starts
         * ({@link StoreServer#start()} then throws IllegalArgumentException).
         *
         * @throws IllegalStateException if neither a storage nor a storage URI was given
         */
        public StoreServer build() {
            if (settings.storage == null && settings.storageUri == null) {
                throw new IllegalStateException("StoreServer needs a storage: call storage(Storage) or storageUri(String)");
            }
            checkFrontDoor();
            return new StoreServer(settings.copy());
        }

        /** Passes a codec option on to the codec's builder, after those given before it (see ServerSettings). */
        private Builder codec(Consumer<StoreCodec.Builder> option) {
            settings.codecOptions = settings.codecOptions.andThen(option);
            return this;
        }
    }
}
