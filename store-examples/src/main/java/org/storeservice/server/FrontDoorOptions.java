package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.storeservice.jetty.AddressRanges;
import org.storeservice.jetty.FrontDoorBuilder;
import org.storeservice.jetty.StoreServer;
import picocli.CommandLine.Option;

/**
 * The options of a front door, shared by {@code serve} and {@code shadow} (each a mixin of this one, as
 * {@code FrontDoorBuilder} is the part their builders share): where it listens, its accept queue and time-outs,
 * HTTPS, the senders whose forwarded headers it takes, and the management port. An option added here reaches both.
 */
final class FrontDoorOptions {
    /** The environment variable the keystore password may come from; never an option (it would show in {@code ps}). */
    static final String KEYSTORE_PASSWORD_VARIABLE = "STORE_TLS_KEYSTORE_PASSWORD";

    @Option(names = "--port", paramLabel = "N", defaultValue = "" + StoreServer.DEFAULT_PORT, converter = Converters.Port.class,
            description = "Port to listen on, where the clients call; 0 picks any free port. Env: STORE_PORT.")
    int port;

    @Option(names = "--host", paramLabel = "ADDRESS", defaultValue = StoreServer.DEFAULT_HOST, converter = Converters.NonEmpty.class,
            description = "Address to listen on; 0.0.0.0 for every interface. Env: STORE_HOST.")
    String host;

    @Option(names = "--accept-queue", paramLabel = "N", defaultValue = "" + StoreServer.DEFAULT_ACCEPT_QUEUE_SIZE,
            converter = Converters.AcceptQueue.class,
            description = "Connections the kernel may hold for the server to accept (the listen backlog), so that a"
                    + " connect storm is not made to wait for SYN retransmits; the kernel caps it at"
                    + " net.core.somaxconn. Env: STORE_ACCEPT_QUEUE.")
    int acceptQueue;

    /** {@link StoreServer#DEFAULT_IDLE_TIMEOUT}, which an annotation cannot name (a test checks they agree). */
    @Option(names = "--idle-timeout", paramLabel = "SECONDS", defaultValue = "30", converter = Converters.Seconds.class,
            description = "Close a client's connection silent for this long. Env: STORE_IDLE_TIMEOUT.")
    Duration idleTimeout;

    /** {@link StoreServer#DEFAULT_STOP_TIMEOUT}, likewise. */
    @Option(names = "--stop-timeout", paramLabel = "SECONDS", defaultValue = "10", converter = Converters.Seconds.class,
            description = "On stop, wait this long for requests in flight (shadow: then as long again for the copies"
                    + " queued). Env: STORE_STOP_TIMEOUT.")
    Duration stopTimeout;

    /** {@link StoreServer#DEFAULT_DRAIN_TIME}, likewise. */
    @Option(names = "--drain-time", paramLabel = "SECONDS", defaultValue = "5", converter = Converters.SecondsOrZero.class,
            description = "On stop, with a management port: answer readiness 503 while still serving for this long, so"
                    + " that load balancers stop sending first (above their check interval times the failures they"
                    + " need); 0 for none. Env: STORE_DRAIN_TIME.")
    Duration drainTime;

    @Option(names = "--management-port", paramLabel = "N", converter = Converters.Port.class,
            description = "Serve /metrics (Prometheus), /health/live and /health/ready on this port; off unless given."
                    + " Env: STORE_MANAGEMENT_PORT.")
    Integer managementPort;

    @Option(names = "--management-host", paramLabel = "ADDRESS", defaultValue = StoreServer.DEFAULT_MANAGEMENT_HOST,
            converter = Converters.NonEmpty.class,
            description = "Address the management port listens on. Env: STORE_MANAGEMENT_HOST.")
    String managementHost;

    @Option(names = "--metrics-path", paramLabel = "PATH", defaultValue = "/metrics", converter = Converters.Path.class,
            description = "Path of the Prometheus metrics on the management port. Env: STORE_METRICS_PATH.")
    String metricsPath;

    @Option(names = "--tls-keystore", paramLabel = "FILE",
            description = "Serve HTTPS on --port with the key and certificate in this PKCS12 keystore; its password"
                    + " comes from the variable " + KEYSTORE_PASSWORD_VARIABLE + " or --tls-keystore-password-file."
                    + " Env: STORE_TLS_KEYSTORE.")
    Path tlsKeystore;

    @Option(names = "--tls-keystore-password-file", paramLabel = "FILE",
            description = "File whose first line is the keystore password. Env: STORE_TLS_KEYSTORE_PASSWORD_FILE.")
    Path tlsKeystorePasswordFile;

    @Option(names = "--tls-sni-host-check", paramLabel = "BOOLEAN", defaultValue = "false", arity = "0..1",
            description = "With --tls-keystore: refuse (400) a request whose Host the certificate does not name."
                    + " Off by default, as IIS: clients that call by address and skip the name check are served."
                    + " Env: STORE_TLS_SNI_HOST_CHECK.")
    boolean tlsSniHostCheck;

    @Option(names = "--tls-protocols", paramLabel = "VERSION[,VERSION...]",
            description = "With --tls-keystore: the TLS versions served, of TLSv1, TLSv1.1, TLSv1.2, TLSv1.3; default"
                    + " TLSv1.2,TLSv1.3. TLSv1 and TLSv1.1 (deprecated, weaker: for clients that can do nothing newer,"
                    + " such as .NET Framework 4.0-4.5 on older Windows) are lifted from the JVM's"
                    + " jdk.tls.disabledAlgorithms for this process, with a warning. Env: STORE_TLS_PROTOCOLS.")
    String tlsProtocols;

    @Option(names = "--tls-legacy-cipher-suites", paramLabel = "SUITE[,SUITE...]",
            description = "With --tls-keystore: cipher suites served after the default ones, for clients that offer"
                    + " none of those; default, with TLSv1 or TLSv1.1: TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA,"
                    + " TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA, TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA,"
                    + " TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA. Env: STORE_TLS_LEGACY_CIPHER_SUITES.")
    String tlsLegacyCipherSuites;

    @Option(names = "--http-port", paramLabel = "N", converter = Converters.Port.class,
            description = "With --tls-keystore: also serve plain HTTP on this port. Env: STORE_HTTP_PORT.")
    Integer httpPort;

    @Option(names = "--trusted-proxies", paramLabel = "CIDR[,CIDR...]", converter = OperationsOptions.Ranges.class,
            description = "Take Forwarded and X-Forwarded-* headers from these senders only (a load balancer in"
                    + " front): serve honours them, shadow passes them on with the client's address appended; others'"
                    + " are ignored (shadow: dropped). Env: STORE_TRUSTED_PROXIES.")
    AddressRanges trustedProxies;

    /**
     * Sets where and how the door listens (no file read): port, address, accept queue, time-outs, drain, trusted senders,
     * the management port's address.
     */
    void listen(FrontDoorBuilder<?> builder) {
        builder.port(port).host(host).acceptQueueSize(acceptQueue).idleTimeout(idleTimeout).stopTimeout(stopTimeout)
                .drainTime(drainTime);
        if (trustedProxies != null) {
            builder.trustedProxies(trustedProxies);
        }
        if (managementPort != null) {
            builder.managementPort(managementPort).managementHost(managementHost);
        }
    }

    /**
     * Sets the HTTPS options on {@code builder}, reading the keystore once to say a wrong file or password plainly.
     *
     * @param environment where {@value #KEYSTORE_PASSWORD_VARIABLE} is looked up
     * @throws IllegalArgumentException for a combination that cannot work (said in the message)
     * @throws IOException if the keystore or the password file cannot be read
     */
    void tls(FrontDoorBuilder<?> builder, Map<String, String> environment) throws IOException {
        if (tlsKeystore != null) {
            List<String> versions = tlsProtocols == null ? null : commaSeparated(tlsProtocols);
            if (versions != null) {
                builder.tlsProtocols(versions); // checks the names, and what they would leave out, before any file is read
            }
            char[] password = keystorePassword(environment);
            try {
                checkKeystore(tlsKeystore, password);
                builder.tls(tlsKeystore, password).tlsSniHostCheck(tlsSniHostCheck);
            } finally {
                Arrays.fill(password, '\0');
            }
            if (versions != null) {
                LegacyTlsProtocols.allow(versions);
            }
            if (tlsLegacyCipherSuites != null) {
                builder.tlsLegacyCipherSuites(commaSeparated(tlsLegacyCipherSuites));
            }
            if (httpPort != null) {
                builder.httpPort(httpPort);
            }
        } else if (httpPort != null || tlsKeystorePasswordFile != null || tlsSniHostCheck || tlsProtocols != null
                || tlsLegacyCipherSuites != null) {
            throw new IllegalArgumentException("--http-port, --tls-keystore-password-file, --tls-sni-host-check,"
                    + " --tls-protocols and --tls-legacy-cipher-suites need --tls-keystore");
        }
    }

    /** {@code a, b,c} as {@code [a, b, c]}; a repeated option's last value wins, as for every other option. */
    private static List<String> commaSeparated(String value) {
        return Arrays.stream(value.split(",", -1)).map(String::strip).toList();
    }

    private char[] keystorePassword(Map<String, String> environment) throws IOException {
        String fromEnvironment = environment.get(KEYSTORE_PASSWORD_VARIABLE);
        if (tlsKeystorePasswordFile != null) {
            if (fromEnvironment != null && !fromEnvironment.isEmpty()) {
                throw new IllegalArgumentException("the keystore password comes from " + KEYSTORE_PASSWORD_VARIABLE
                        + " or --tls-keystore-password-file, not both");
            }
            String text = Files.readString(tlsKeystorePasswordFile, UTF_8);
            int end = text.indexOf('\n');
            String line = end < 0 ? text : text.substring(0, end);
            return (line.endsWith("\r") ? line.substring(0, line.length() - 1) : line).toCharArray();
        }
        if (fromEnvironment == null) {
            throw new IllegalArgumentException("--tls-keystore needs its password in " + KEYSTORE_PASSWORD_VARIABLE
                    + " or --tls-keystore-password-file");
        }
        return fromEnvironment.toCharArray();
    }

    /** Reads the keystore once, so that a wrong file or password is said plainly rather than as a failed start. */
    private static void checkKeystore(Path file, char[] password) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            KeyStore.getInstance("PKCS12").load(in, password);
        } catch (NoSuchFileException e) {
            throw new IOException("cannot read the TLS keystore " + file + ": no such file", e);
        } catch (IOException | GeneralSecurityException e) {
            // PKCS12 says a wrong password as an IOException whose cause is an UnrecoverableKeyException.
            throw new IOException("cannot read the TLS keystore " + file + " (not PKCS12, or the wrong password): "
                    + e.getMessage(), e);
        }
    }
}
