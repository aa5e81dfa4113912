package org.storeservice.shadow;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.http.UriCompliance;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.codec.BodyMemoryBudget;
import org.storeservice.codec.StoreCodec;
import org.storeservice.jetty.DrainingHandler;
import org.storeservice.jetty.EndpointConnectors;
import org.storeservice.jetty.FrontDoorBuilder;
import org.storeservice.jetty.FrontDoorSettings;
import org.storeservice.jetty.ListenException;
import org.storeservice.jetty.ManagementServer;
import org.storeservice.jetty.QuietJetty;

/**
 * A shadow proxy for switching a live service over: every request goes to the primary, and the client gets the
 * primary's answer as the primary sent it; a copy of each request at the endpoint goes to the shadow afterwards, never
 * delaying the client, and the two answers are compared.
 *
 * <pre>{@code
 * ShadowProxy proxy = ShadowProxy.builder()
 *         .port(8080)
 *         .primary(URI.create("http://old-host/API/Store.asmx"))
 *         .shadow(URI.create("http://127.0.0.1:8081/API/Store.asmx"))
 *         .differences(Path.of("differences.jsonl"))
 *         .build().start();
 * }</pre>
 *
 * <p><b>Both stores in step.</b> Writes of one key go to the primary one at a time, and their copies to the shadow in
 * the same order, so both services end with the same value for every key whose writes were all mirrored. A write
 * whose copy was not (the queue full, the shadow failing, the proxy stopping) has its key listed in the dropped-keys
 * file, to re-sync exactly those keys.
 *
 * <p><b>Bounded.</b> Request bodies are held once (in memory within a quarter of the heap, else a temporary file),
 * up to {@link Builder#maxBodyBytes}; a larger body streams to the primary and is not mirrored. The copies waiting for
 * the shadow hold at most {@link Builder#queueBytes}; one that does not fit is dropped at once and counted. Answers
 * waiting for slow clients hold at most an eighth of the heap together (beyond it, each exchange reads the primary
 * only as fast as its client reads).
 *
 * <p><b>Never twice.</b> Each request is sent to the primary once and its copy to the shadow at most once; neither
 * is ever sent again, whatever fails (a write sent twice could be applied twice).
 *
 * <p>Thread-safe. Starts once; after {@link #stop()} it cannot be started again.
 */
public final class ShadowProxy implements AutoCloseable {
    private static final Logger log = LoggerFactory.getLogger(ShadowProxy.class);

    /** The default largest body copied and mirrored: 16 MiB, above both services' default request limit (4 MiB). */
    public static final long DEFAULT_MAX_BODY_BYTES = 16L * 1024 * 1024;
    /** The default bound on the copies waiting for the shadow: 64 MiB. */
    public static final long DEFAULT_QUEUE_BYTES = 64L * 1024 * 1024;
    /** The default number of copies sent to the shadow at once. */
    public static final int DEFAULT_SHADOW_CONCURRENCY = 16;
    /** The default time the shadow has to answer a copy. */
    public static final Duration DEFAULT_SHADOW_TIMEOUT = Duration.ofSeconds(30);
    /**
     * The default time the primary may be silent during an exchange before the client gets 504: above the 100 s a
     * .NET proxy class waits by default, so that the client gives up first, as it would without the proxy.
     */
    public static final Duration DEFAULT_PRIMARY_TIMEOUT = Duration.ofSeconds(120);
    /** The default size a differences file may reach before it is rotated: 64 MiB. */
    public static final long DEFAULT_DIFFERENCES_MAX_BYTES = 64L * 1024 * 1024;
    /** The default number of rotated differences files kept. */
    public static final int DEFAULT_DIFFERENCES_FILES = 5;
    /** The most of an answer kept for the comparison; a longer one is compared by its length and SHA-256. */
    static final int MAX_ANSWER_BYTES = 1024 * 1024;
    /** The longest key, request line or body written whole to the differences file; longer ones are cut. */
    static final int MAX_REPORTED_CHARS = 4096;
    /**
     * The largest request head: above IIS's 16 KiB, so that a head IIS refuses reaches it and is refused by it; 1 KiB
     * below the buffer the head is sent on in, for the X-Forwarded-For the proxy adds.
     */
    static final int MAX_HEAD_BYTES = Upstream.REQUEST_HEAD_BUFFER_BYTES - 1024;

    /** NEW, SERVING once started, DRAINING while readiness answers 503 and it serves on, STOPPING, STOPPED. */
    private enum State { NEW, SERVING, DRAINING, STOPPING, STOPPED }

    private final Settings settings;
    private volatile State state = State.NEW;
    private Server server;
    private EndpointConnectors connectors;
    private DrainingHandler draining;
    private Upstream primary;
    private Upstream shadow;
    private ShadowQueue queue;
    private ClientAnswerBudget answers;
    private Reports reports;
    private ManagementServer management;

    private ShadowProxy(Settings settings) {
        this.settings = settings;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * Opens the files, binds the port and starts proxying.
     *
     * @return this proxy, started
     * @throws ListenException if the port or the management port cannot be bound
     * @throws IOException if the differences or dropped-keys file cannot be opened
     */
    public synchronized ShadowProxy start() throws IOException {
        if (state != State.NEW) {
            throw new IllegalStateException("ShadowProxy can be started once; it is " + state);
        }
        try {
            reports = new Reports(
                    settings.differences == null ? null
                            : new JsonLinesFile(settings.differences, settings.differencesMaxBytes, settings.differencesFiles),
                    // Rotated like the differences file, one file kept at least: each line is a key to re-sync.
                    settings.droppedKeys == null ? null : new JsonLinesFile(settings.droppedKeys,
                            settings.differencesMaxBytes, Math.max(1, settings.differencesFiles)),
                    settings.observer, MAX_REPORTED_CHARS);
            management = settings.door.managementServer(this::notReadyReason);
            if (management != null) {
                management.start();
            }
            primary = new Upstream(settings.primary, "store-shadow-primary", 65_536, 200);
            shadow = new Upstream(settings.shadow, "store-shadow-copies", settings.shadowConcurrency,
                    Math.max(8, settings.shadowConcurrency));
            ShadowSender sender = new ShadowSender(shadow, primary.endpointPath(),
                    new AnswerComparison(settings.primary, settings.shadow),
                    settings.accept.isEmpty() ? AcceptRules.NONE : AcceptRules.read(settings.accept), reports,
                    settings.shadowTimeout.toMillis(), MAX_ANSWER_BYTES);
            queue = new ShadowQueue(settings.queueBytes, settings.shadowConcurrency, sender::send, this::dropped);
            sender.queue(queue);
            primary.start();
            shadow.start();
            // A quarter of the heap for the bodies held, as the codec allows Store's own request bodies.
            BodyMemoryBudget bodies = new BodyMemoryBudget(Runtime.getRuntime().maxMemory() / 4);
            answers = new ClientAnswerBudget(settings.clientAnswerBytes > 0 ? settings.clientAnswerBytes
                    : Runtime.getRuntime().maxMemory() / 8);
            server = jetty(new Exchanges(primary,
                    new RequestClassifier(settings.namespace, primary.endpointPath(), settings.maxBodyBytes),
                    new KeyTurns(), queue, reports, bodies, answers, new ForwardedHeaders(settings.door.trustedProxies()),
                    settings.maxBodyBytes, MAX_ANSWER_BYTES, settings.primaryTimeout.toMillis()));
            connectors.open(); // before Jetty starts, so that a port that cannot be bound is named
            server.start();
            state = State.SERVING;
        } catch (IOException | RuntimeException e) {
            abandon();
            throw e;
        } catch (Exception e) {
            abandon();
            throw new IOException("Could not start the shadow proxy on " + settings.door.host() + ':' + settings.door.port(), e);
        }
        log.info("Shadow proxy listening at {}; primary {}, shadow {}", endpointUri(), settings.primary, settings.shadow);
        if (connectors.plain() != null) {
            log.info("Plain HTTP also on port {}", connectors.plain().getLocalPort());
        }
        if (management != null) {
            log.info("Management port {} on {}", management.port(), settings.door.managementHost());
        }
        return this;
    }

    private Server jetty(Exchanges exchanges) {
        QueuedThreadPool threads = new QueuedThreadPool();
        threads.setName("store-shadow");
        Server jetty = new Server(threads);
        QuietJetty.quiet(jetty);
        jetty.setStopTimeout(settings.door.stopTimeout().toMillis());
        HttpConfiguration http = QuietJetty.httpConfiguration();
        http.setSendDateHeader(false); // the primary's Date goes to the client, not a second one
        http.setRequestHeaderSize(MAX_HEAD_BYTES);
        http.setUriCompliance(UriCompliance.UNSAFE); // any path the client sends goes to the primary, to answer itself
        // Forwarded headers are passed on (ForwardedHeaders), not applied to the request.
        connectors = EndpointConnectors.add(jetty, settings.door, -1, http, false);
        // Outermost: counts the requests in flight for the stop, and while it drains or stops serves each request and
        // closes its connection, never 503 (as the server's own).
        draining = new DrainingHandler(new ProxyHandler(exchanges));
        jetty.setHandler(draining);
        return jetty;
    }

    private void dropped(Mirror mirror, String why) {
        try {
            reports.dropped(mirror, why);
        } finally {
            mirror.close();
        }
    }

    private String notReadyReason() {
        return switch (state) {
            case SERVING -> null;
            case NEW -> "starting";
            default -> "stopping";
        };
    }

    /**
     * Stops gracefully, in stages, as {@code StoreServer} does. With a management port, readiness answers 503 at once
     * while the proxy goes on taking connections and serving every request for the drain time
     * ({@link Builder#drainTime}), each answer closing its connection, so that load balancers stop sending first. Then:
     * no new connections; the requests in flight are answered (up to the stop timeout); the copies still queued get up
     * to the stop timeout to reach the shadow, and those left are dropped, their keys listed; then the files are
     * closed. Harmless to call twice, or before {@link #start()}.
     *
     * @return {@code false} if requests in flight or queued copies were cut off (logged)
     */
    public boolean stop() {
        if (drainFirst()) {
            try {
                Thread.sleep(settings.door.drainTime().toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // stop now: the one who interrupted wants it over
            }
        }
        synchronized (this) {
            if (state == State.STOPPED || state == State.STOPPING) {
                return true;
            }
            if (state == State.NEW) {
                state = State.STOPPED;
                return true;
            }
            state = State.STOPPING;
        }
        boolean clean = true;
        log.info("Stopping: no new connections; waiting up to {} for requests in flight, then for the copies queued",
                settings.door.stopTimeout());
        try {
            server.stop();
        } catch (TimeoutException e) {
            clean = false;
            log.warn("Requests still in flight at the stop timeout were cut off");
        } catch (Exception e) {
            clean = false;
            log.warn("Error while stopping the shadow proxy", e);
        }
        try {
            int cutOff = queue.stop(settings.door.stopTimeout());
            if (cutOff > 0) {
                clean = false;
                log.warn("{} copies were still queued for the shadow, or waiting for its answer, at the stop timeout;"
                        + " the keys of their writes are listed", cutOff);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            clean = false;
        }
        abandon();
        state = State.STOPPED;
        log.info("Stopped");
        return clean;
    }

    /** Starts the drain if the proxy serves and has one to make; {@code true} if the caller must wait it out. */
    private synchronized boolean drainFirst() {
        if (state != State.SERVING || settings.door.drainTime().isZero()) {
            return false;
        }
        state = State.DRAINING;
        draining.drain();
        log.info("Draining: readiness answers 503; serving on for {}, each answer closing its connection",
                settings.door.drainTime());
        return true;
    }

    /** Stops what was started and closes what was opened; after a failed start, or at the end of a stop. */
    private void abandon() {
        for (AutoCloseable part : new AutoCloseable[] {this::stopJetty, shadow, primary, this::stopManagement, reports}) {
            if (part == null) {
                continue;
            }
            try {
                part.close();
            } catch (Exception e) {
                log.warn("Error while stopping the shadow proxy", e);
            }
        }
    }

    private void stopJetty() throws Exception {
        if (server != null && !server.isStopped()) {
            server.stop();
        }
        if (connectors != null) {
            connectors.close();
        }
    }

    private void stopManagement() throws Exception {
        if (management != null) {
            management.stop();
        }
    }

    @Override
    public void close() {
        stop();
    }

    /** The port it listens on: the one asked for, or the one the system chose for {@code 0}. */
    public synchronized int port() {
        if (state != State.SERVING && state != State.DRAINING) {
            throw new IllegalStateException("ShadowProxy is " + state.name().toLowerCase(Locale.ROOT) + ", not serving");
        }
        return connectors.endpoint().getLocalPort();
    }

    /** The proxy's endpoint URL, {@code http://HOST:PORT} ({@code https} with TLS) and the primary's endpoint path. */
    public URI endpointUri() {
        return URI.create((settings.door.tls() ? "https://" : "http://") + hostForUrl(settings.door.host()) + ":" + port()
                + primary.endpointPath());
    }

    /** The management port, once started with one. */
    public synchronized int managementPort() {
        if (management == null) {
            throw new IllegalStateException("No management port was configured");
        }
        return management.port();
    }

    /** The copies queued for the shadow or being sent now. */
    public int queuedCopies() {
        ShadowQueue q = queue;
        return q == null ? 0 : q.copies();
    }

    /** The bytes those copies hold (bodies and the primary's answers), at most {@link Builder#queueBytes}. */
    public long queuedBytes() {
        ShadowQueue q = queue;
        return q == null ? 0 : q.bytes();
    }

    /** The memory for answers waiting for clients, once started (for tests). */
    ClientAnswerBudget clientAnswers() {
        return answers;
    }

    private static String hostForUrl(String host) {
        return host.indexOf(':') >= 0 && !host.startsWith("[") ? "[" + host + "]" : host;
    }

    /** The proxy's settings, copied from the builder. */
    private static final class Settings implements Cloneable {
        /** Where and how it listens, its time-outs and management port: what it shares with StoreServer. */
        FrontDoorSettings door;
        URI primary;
        URI shadow;
        String namespace = StoreCodec.DEFAULT_NAMESPACE;
        long maxBodyBytes = DEFAULT_MAX_BODY_BYTES;
        long queueBytes = DEFAULT_QUEUE_BYTES;
        int shadowConcurrency = DEFAULT_SHADOW_CONCURRENCY;
        Duration shadowTimeout = DEFAULT_SHADOW_TIMEOUT;
        Duration primaryTimeout = DEFAULT_PRIMARY_TIMEOUT;
        Path differences;
        long differencesMaxBytes = DEFAULT_DIFFERENCES_MAX_BYTES;
        int differencesFiles = DEFAULT_DIFFERENCES_FILES;
        Path droppedKeys;
        /** Immutable, so that a copy does not share it with its builder. */
        List<Path> accept = List.of();
        /** The memory for answers waiting for clients; 0 for an eighth of the heap. */
        long clientAnswerBytes;
        ShadowObserver observer;

        Settings copy() {
            try {
                return (Settings) clone();
            } catch (CloneNotSupportedException e) {
                throw new AssertionError(e);
            }
        }
    }

    /**
     * Builds a {@link ShadowProxy}; {@link #primary} and {@link #shadow} are required. The options it shares with
     * {@code StoreServer} (ports, address, time-outs, HTTPS, management port) are {@link FrontDoorBuilder}'s. Not
     * thread-safe.
     */
    public static final class Builder extends FrontDoorBuilder<Builder> {
        private final Settings settings = new Settings();

        private Builder() {
        }

        /**
         * The primary's endpoint URL ({@code http://old-host/API/Store.asmx}): every request goes there, and the client
         * gets its answer. The proxy serves the same endpoint path.
         */
        public Builder primary(URI endpoint) {
            settings.primary = endpoint(endpoint, "primary");
            return this;
        }

        /** The shadow's endpoint URL: the copies go there. */
        public Builder shadow(URI endpoint) {
            settings.shadow = endpoint(endpoint, "shadow");
            return this;
        }

        /** The service's XML namespace, to read the keys of SOAP writes; default {@value StoreCodec#DEFAULT_NAMESPACE}. */
        public Builder namespace(String namespace) {
            settings.namespace = nonBlank(namespace, "namespace");
            return this;
        }

        /**
         * The largest request body copied, compared and mirrored, at most 2 GiB; a larger one streams to the primary
         * only. Set it at least as large as both services' request limits. Default 16 MiB.
         */
        public Builder maxBodyBytes(long bytes) {
            if (bytes < 0 || bytes > Integer.MAX_VALUE - 8) {
                throw new IllegalArgumentException("maxBodyBytes must be 0.." + (Integer.MAX_VALUE - 8) + ": " + bytes);
            }
            settings.maxBodyBytes = bytes;
            return this;
        }

        /** The most the copies waiting for the shadow may hold together; one that does not fit is dropped. Default 64 MiB. */
        public Builder queueBytes(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("queueBytes must not be negative: " + bytes);
            }
            settings.queueBytes = bytes;
            return this;
        }

        /** How many copies are sent to the shadow at once. Default 16. */
        public Builder shadowConcurrency(int copies) {
            if (copies < 1) {
                throw new IllegalArgumentException("shadowConcurrency must be at least 1: " + copies);
            }
            settings.shadowConcurrency = copies;
            return this;
        }

        /** How long the shadow has to answer a copy; then it counts as a shadow error. Default 30 s. */
        public Builder shadowTimeout(Duration timeout) {
            settings.shadowTimeout = positive(timeout, "shadowTimeout");
            return this;
        }

        /** How long the primary may be silent during an exchange; then the client gets 504. Default 120 s. */
        public Builder primaryTimeout(Duration timeout) {
            settings.primaryTimeout = positive(timeout, "primaryTimeout");
            return this;
        }

        /** Appends each difference, one JSON line, to this file (rotated by size); default: to the log. */
        public Builder differences(Path file) {
            settings.differences = Objects.requireNonNull(file, "file");
            return this;
        }

        /** The size a differences file may reach before it is rotated. Default 64 MiB. */
        public Builder differencesMaxBytes(long bytes) {
            if (bytes < 1) {
                throw new IllegalArgumentException("differencesMaxBytes must be positive: " + bytes);
            }
            settings.differencesMaxBytes = bytes;
            return this;
        }

        /** How many rotated differences files are kept ({@code FILE.1} ...); 0 for none. Default 5. */
        public Builder differencesFiles(int files) {
            if (files < 0) {
                throw new IllegalArgumentException("differencesFiles must not be negative: " + files);
            }
            settings.differencesFiles = files;
            return this;
        }

        /**
         * Appends the key of each write the shadow may lack (its copy dropped, or not answered), one JSON line, to this
         * file; default: to the log.
         */
        public Builder droppedKeys(Path file) {
            settings.droppedKeys = Objects.requireNonNull(file, "file");
            return this;
        }

        /**
         * The rules of the understood differences, read at start (one a line: BINDING OPERATION WHAT REASON; a bad line
         * fails the start, naming it): a difference they all match is counted {@code accepted}. None by default. Each
         * call adds a file, read after those before it (the .NET rules, then Mono's, say).
         */
        public Builder accept(Path file) {
            List<Path> files = new ArrayList<>(settings.accept);
            files.add(Objects.requireNonNull(file, "file"));
            settings.accept = List.copyOf(files);
            return this;
        }

        /** The memory answers waiting for their clients may hold together (tests set it); an eighth of the heap. */
        Builder clientAnswerBytes(long bytes) {
            settings.clientAnswerBytes = bytes;
            return this;
        }

        /** Told what became of each request at the endpoint (metrics). None by default. */
        public Builder observer(ShadowObserver observer) {
            settings.observer = Objects.requireNonNull(observer, "observer");
            return this;
        }

        /**
         * The proxy, not started.
         *
         * @throws IllegalStateException if the primary or the shadow is missing
         */
        public ShadowProxy build() {
            if (settings.primary == null || settings.shadow == null) {
                throw new IllegalStateException("ShadowProxy needs a primary and a shadow");
            }
            Settings copy = settings.copy();
            copy.door = frontDoor();
            return new ShadowProxy(copy);
        }

        private static URI endpoint(URI endpoint, String name) {
            Objects.requireNonNull(endpoint, name);
            String scheme = endpoint.getScheme() == null ? "" : endpoint.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || endpoint.getHost() == null) {
                throw new IllegalArgumentException(name + " must be an http:// or https:// URL with a host: " + endpoint);
            }
            String path = endpoint.getRawPath();
            if (path == null || !path.startsWith("/") || path.length() < 2 || path.endsWith("/")
                    || endpoint.getRawQuery() != null || endpoint.getRawFragment() != null) {
                throw new IllegalArgumentException(name + " must be the endpoint's URL, with a path and no query, e.g."
                        + " http://host/API/Store.asmx: " + endpoint);
            }
            return endpoint;
        }

        private static String nonBlank(String value, String name) {
            if (Objects.requireNonNull(value, name).isBlank()) {
                throw new IllegalArgumentException(name + " must not be blank");
            }
            return value;
        }

        private static Duration positive(Duration duration, String name) {
            if (Objects.requireNonNull(duration, name).isNegative() || duration.isZero()) {
                throw new IllegalArgumentException(name + " must be positive: " + duration);
            }
            return duration;
        }
    }
}
