package org.storeservice.jetty;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.eclipse.jetty.server.Handler;

/**
 * The options every front door of this project shares, a {@link StoreServer} and the shadow proxy alike: where it
 * listens (ports, address, accept queue), its time-outs, HTTPS, the proxies whose forwarded headers it takes, and the
 * management port. One builder part, so that an option added here reaches both; each door's own builder extends it.
 *
 * @param <B> the builder that extends this one, which each setter returns
 */
public abstract class FrontDoorBuilder<B extends FrontDoorBuilder<B>> {
    /** The TLS versions {@link #tlsProtocols} takes, by their names in lower case. */
    private static final Map<String, String> TLS_VERSIONS = Map.of("tlsv1", "TLSv1", "tlsv1.0", "TLSv1",
            "tlsv1.1", "TLSv1.1", "tlsv1.2", "TLSv1.2", "tlsv1.3", "TLSv1.3");

    /** What the setters write. */
    private final FrontDoorSettings settings;

    /** A builder starting from the defaults, for a front door outside this package. */
    protected FrontDoorBuilder() {
        this(new FrontDoorSettings());
    }

    /** A builder writing into {@code settings}, which may hold a door's own options too. */
    FrontDoorBuilder(FrontDoorSettings settings) {
        this.settings = settings;
    }

    /**
     * {@return the front door's settings as set so far, a copy that later setters do not change}
     *
     * @throws IllegalStateException for a combination that cannot work (HTTPS options without {@link #tls})
     */
    protected final FrontDoorSettings frontDoor() {
        checkFrontDoor();
        FrontDoorSettings copy = new FrontDoorSettings();
        settings.copyTo(copy);
        return copy;
    }

    /** Checks the combinations of these options; {@code IllegalStateException} for one that cannot work. */
    final void checkFrontDoor() {
        if (settings.httpPort >= 0 && settings.tlsKeystore == null) {
            throw new IllegalStateException("httpPort adds plain HTTP beside HTTPS: it needs tls(...)");
        }
        if ((settings.tlsProtocols != null || settings.tlsLegacyCipherSuites != null) && settings.tlsKeystore == null) {
            throw new IllegalStateException("tlsProtocols and tlsLegacyCipherSuites are HTTPS options: they need tls(...)");
        }
        if (EndpointTls.servesLegacy(settings.tlsProtocols) && settings.tlsLegacyCipherSuites != null
                && settings.tlsLegacyCipherSuites.isEmpty()) {
            throw new IllegalStateException("TLS 1.0 and 1.1 can use none of the default cipher suites:"
                    + " tlsLegacyCipherSuites must name at least one");
        }
    }

    /**
     * The port to listen on, {@code 0} for any free one (see {@link StoreServer#port()}); default 8080.
     *
     * @param port the port; {@code 0} for any free one
     * @return this builder
     */
    public B port(int port) {
        checkPort("port", port);
        settings.port = port;
        return self();
    }

    /**
     * The address to listen on, a host name or IP literal; {@code 0.0.0.0} for every interface. Default
     * {@value StoreServer#DEFAULT_HOST}.
     *
     * @param host a host name or IP literal
     * @return this builder
     */
    public B host(String host) {
        if (Objects.requireNonNull(host, "host").isBlank()) {
            throw new IllegalArgumentException("host must not be blank");
        }
        settings.host = host;
        return self();
    }

    /**
     * How many connections the kernel may hold completed for the server to accept (the listen backlog of the
     * endpoint's port, and of {@link #httpPort} beside it), 1 to 65535; default
     * {@value StoreServer#DEFAULT_ACCEPT_QUEUE_SIZE}. The kernel caps it: on Linux at {@code net.core.somaxconn}
     * (and, where SYN cookies are off, {@code net.ipv4.tcp_max_syn_backlog} bounds the connections still
     * half-open).
     *
     * @param connections the listen backlog
     * @return this builder
     */
    public B acceptQueueSize(int connections) {
        if (connections < 1 || connections > 65535) {
            throw new IllegalArgumentException("acceptQueueSize must be 1..65535: " + connections);
        }
        settings.acceptQueueSize = connections;
        return self();
    }

    /**
     * How long a connection may see no traffic before it is closed; default 30 s.
     *
     * @param idleTimeout the time-out
     * @return this builder
     */
    public B idleTimeout(Duration idleTimeout) {
        settings.idleTimeout = positive(idleTimeout, "idleTimeout");
        return self();
    }

    /**
     * How long a request head (request line and header fields) may take from its first byte to its last;
     * past it the client gets {@code 408} and the connection is closed. Default 20 s.
     *
     * @param requestHeadersTimeout the time-out
     * @return this builder
     */
    public B requestHeadersTimeout(Duration requestHeadersTimeout) {
        settings.requestHeadersTimeout = positive(requestHeadersTimeout, "requestHeadersTimeout");
        return self();
    }

    /**
     * How long a stop waits for requests in flight ({@link StoreServer#stop()}; the shadow proxy then waits as long
     * again for its queued copies); default 10 s.
     *
     * @param stopTimeout the time-out
     * @return this builder
     */
    public B stopTimeout(Duration stopTimeout) {
        settings.stopTimeout = positive(stopTimeout, "stopTimeout");
        return self();
    }

    /**
     * How long a stop first serves on while readiness answers 503 (the lame-duck phase), so that load balancers take
     * the server (or proxy) out before it stops taking connections; default {@link StoreServer#DEFAULT_DRAIN_TIME}. Set it
     * above the load balancer's check interval times the failures it needs to mark a server down. Only with a
     * management port (without one nothing reads readiness, and the stop begins at once); {@code 0} for none.
     *
     * @param drainTime the drain time; {@code 0} for none
     * @return this builder
     */
    public B drainTime(Duration drainTime) {
        Objects.requireNonNull(drainTime, "drainTime");
        if (drainTime.isNegative()) {
            throw new IllegalArgumentException("drainTime must not be negative: " + drainTime);
        }
        settings.drainTime = drainTime;
        return self();
    }

    /**
     * Serves HTTPS on {@link #port(int)}, with the key and certificate chain in a PKCS12 keystore. The
     * WSDL's addresses then say {@code https}. A plain HTTP port may be added beside it ({@link #httpPort}).
     * The keystore is read when the server starts.
     *
     * @param pkcs12Keystore the keystore file
     * @param password the keystore's password
     * @return this builder
     */
    public B tls(Path pkcs12Keystore, char[] password) {
        settings.tlsKeystore = Objects.requireNonNull(pkcs12Keystore, "pkcs12Keystore");
        settings.tlsKeystorePassword = Objects.requireNonNull(password, "password").clone();
        return self();
    }

    /**
     * With {@link #tls}: the TLS versions served, of {@code TLSv1}, {@code TLSv1.1}, {@code TLSv1.2} and
     * {@code TLSv1.3} (any case; {@code TLSv1.0} is taken for {@code TLSv1}), exactly those. By default those the JDK
     * enables, TLS 1.2 and 1.3. A list of old versions alone is refused (it would turn TLS 1.2 and 1.3 off): name the
     * modern ones to keep beside them. The versions served are logged at start.
     *
     * <p>TLS 1.0 and 1.1 are for clients that can do nothing newer, such as .NET Framework 4.0 to 4.5 on older
     * Windows. With either, the {@link StoreServer#DEFAULT_TLS_LEGACY_CIPHER_SUITES} are served too (unless
     * {@link #tlsLegacyCipherSuites} names others) and a warning names the risk at start. The JDK disables both
     * for the whole JVM, in the security property {@code jdk.tls.disabledAlgorithms}: {@link StoreServer#start()}
     * checks that this JVM will negotiate every version asked for, and fails saying so where it will not. Lifting
     * that property is the process owner's choice (docs/operating.md shows how), never this library's.
     *
     * @param protocols the TLS versions to serve
     * @return this builder
     */
    public B tlsProtocols(List<String> protocols) {
        Set<String> checked = new LinkedHashSet<>();
        for (String protocol : Objects.requireNonNull(protocols, "protocols")) {
            String name = TLS_VERSIONS.get(Objects.requireNonNull(protocol, "protocol").strip().toLowerCase(Locale.ROOT));
            if (name == null) {
                throw new IllegalArgumentException("not a TLS version this server serves: " + protocol
                        + " (TLSv1, TLSv1.1, TLSv1.2, TLSv1.3)");
            }
            checked.add(name);
        }
        if (checked.isEmpty()) {
            throw new IllegalArgumentException("tlsProtocols needs at least one TLS version");
        }
        if (!checked.contains("TLSv1.2") && !checked.contains("TLSv1.3")) {
            // Named alone, the old versions would turn the modern ones off for every client: refused, not guessed.
            throw new IllegalArgumentException("tlsProtocols " + String.join(",", checked) + " names only versions older"
                    + " than TLS 1.2: TLSv1.2 and TLSv1.3 would be lost for every client of the port; name the ones to"
                    + " keep too, e.g. " + String.join(",", checked) + ",TLSv1.2,TLSv1.3");
        }
        settings.tlsProtocols = List.copyOf(checked);
        return self();
    }

    /**
     * With {@link #tls}: cipher suites served after the default ones, for clients that offer none of those; by
     * default the {@link StoreServer#DEFAULT_TLS_LEGACY_CIPHER_SUITES} where {@link #tlsProtocols} names TLS 1.0 or 1.1,
     * else none. The server's order prefers the default suites, so a client that offers one of them gets it.
     * Named as the JDK names them (IANA's names, {@code TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA}); one this JDK does
     * not know fails the start. What the JVM's {@code jdk.tls.disabledAlgorithms} disables (3DES, RC4; in recent
     * JDKs, 25 among them, the {@code TLS_RSA_*} suites) is still never negotiated.
     *
     * @param cipherSuites the suites, by their IANA names
     * @return this builder
     */
    public B tlsLegacyCipherSuites(List<String> cipherSuites) {
        for (String suite : Objects.requireNonNull(cipherSuites, "cipherSuites")) {
            if (!Objects.requireNonNull(suite, "cipher suite").matches("[A-Z][A-Z0-9_]+")) {
                throw new IllegalArgumentException("not a cipher suite name like TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: "
                        + suite);
            }
        }
        settings.tlsLegacyCipherSuites = List.copyOf(new LinkedHashSet<>(cipherSuites));
        return self();
    }

    /**
     * With {@link #tls}: told of each handshake refused because the client offered no version served (its address and
     * the newest version it offered), for example to count them by version on the metrics. The refusals are logged
     * either way, at most one line every 10 s. None by default.
     *
     * @param refusals told of each refusal
     * @return this builder
     */
    public B tlsVersionRefusals(TlsVersionRefusals refusals) {
        settings.tlsVersionRefusals = Objects.requireNonNull(refusals, "refusals");
        return self();
    }

    /**
     * With {@link #tls}: refuse with {@code 400} a request whose {@code Host} the certificate does not name
     * (Jetty's SNI host check). Off by default, as IIS: a client calling by address, or by a name the
     * certificate lacks, while skipping the name check (as many legacy clients do) is served.
     *
     * @param check whether to refuse such requests
     * @return this builder
     */
    public B tlsSniHostCheck(boolean check) {
        settings.tlsSniHostCheck = check;
        return self();
    }

    /**
     * With {@link #tls}: also serve plain HTTP on this port ({@code 0} for any free one). Off by default.
     *
     * @param httpPort the port; {@code 0} for any free one
     * @return this builder
     */
    public B httpPort(int httpPort) {
        checkPort("httpPort", httpPort);
        settings.httpPort = httpPort;
        return self();
    }

    /**
     * Takes {@code Forwarded} and {@code X-Forwarded-*} headers from these senders only: a {@link StoreServer} honours
     * them (see {@link TrustedProxyCustomizer}), the shadow proxy passes them on. Off by default: the headers are
     * ignored (the proxy drops them).
     *
     * @param proxies the proxies' address ranges
     * @return this builder
     */
    public B trustedProxies(AddressRanges proxies) {
        settings.trustedProxies = Objects.requireNonNull(proxies, "proxies");
        return self();
    }

    /**
     * Serves {@code /health/live} and {@code /health/ready}, and {@link #managementHandler}, on this port
     * ({@code 0} for any free one), on threads of its own. Off by default.
     *
     * @param managementPort the port; {@code 0} for any free one
     * @return this builder
     */
    public B managementPort(int managementPort) {
        checkPort("managementPort", managementPort);
        settings.managementPort = managementPort;
        return self();
    }

    /**
     * The management port's bind address; default {@value StoreServer#DEFAULT_MANAGEMENT_HOST}.
     *
     * @param managementHost a host name or IP literal
     * @return this builder
     */
    public B managementHost(String managementHost) {
        if (Objects.requireNonNull(managementHost, "managementHost").isBlank()) {
            throw new IllegalArgumentException("managementHost must not be blank");
        }
        settings.managementHost = managementHost;
        return self();
    }

    /**
     * A handler served on the management port after the health checks, for example metrics.
     *
     * @param handler the handler
     * @return this builder
     */
    public B managementHandler(Handler handler) {
        settings.managementHandler = Objects.requireNonNull(handler, "handler");
        return self();
    }

    @SuppressWarnings("unchecked") // B is the class that extends this one, as its declaration demands
    private B self() {
        return (B) this;
    }

    /** A TCP port, or 0 for any free one. */
    static void checkPort(String option, int port) {
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException(option + " must be 0..65535: " + port);
        }
    }

    static Duration positive(Duration duration, String name) {
        if (Objects.requireNonNull(duration, name).isNegative() || duration.isZero()) {
            throw new IllegalArgumentException(name + " must be positive: " + duration);
        }
        return duration;
    }
}
