package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.server.RequestLogWriter;
import org.storeservice.jetty.AddressRanges;
import org.storeservice.jetty.BasicUsers;
import org.storeservice.jetty.StoreServer;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The server's operating options, each off unless given: the management port (metrics, health), the access log,
 * HTTPS, Basic authentication, the client allow-list and trusted proxies.
 */
final class OperationsOptions {
    /** The environment variable the keystore password may come from; never an option (it would show in {@code ps}). */
    static final String KEYSTORE_PASSWORD_VARIABLE = "STORE_TLS_KEYSTORE_PASSWORD";

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

    @Option(names = "--access-log", paramLabel = "FILE",
            description = "Write an access log (extended NCSA, plus binding and operation) to FILE, appending;"
                    + " - for standard output. Off unless given. Env: STORE_ACCESS_LOG.")
    String accessLog;

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

    @Option(names = "--users-file", paramLabel = "FILE",
            description = "Require HTTP Basic authentication as a user of this file (see the users add command)."
                    + " Env: STORE_USERS_FILE.")
    Path usersFile;

    @Option(names = "--public-metadata", paramLabel = "BOOLEAN", defaultValue = "false", arity = "0..1",
            description = "With --users-file: serve the WSDL, disco and help pages without credentials."
                    + " Env: STORE_PUBLIC_METADATA.")
    boolean publicMetadata;

    @Option(names = "--allow-from", paramLabel = "CIDR[,CIDR...]", converter = Ranges.class,
            description = "Serve only clients in these address ranges; others get 403. Env: STORE_ALLOW_FROM.")
    AddressRanges allowFrom;

    @Option(names = "--trusted-proxies", paramLabel = "CIDR[,CIDR...]", converter = Ranges.class,
            description = "Honour Forwarded and X-Forwarded-* headers from these proxies only."
                    + " Env: STORE_TRUSTED_PROXIES.")
    AddressRanges trustedProxies;

    /** Writes each access log line in the format of {@code --log-format} (set by the command). */
    UnaryOperator<RequestLog.Writer> accessLogFormat = UnaryOperator.identity();

    /**
     * Sets these options on {@code builder}.
     *
     * @param environment where {@value #KEYSTORE_PASSWORD_VARIABLE} is looked up
     * @param out standard output, for {@code --access-log -}
     * @return the metrics to close once the server stopped, or {@code null} without a management port
     * @throws IllegalArgumentException for a combination that cannot work (said in the message)
     * @throws IOException if the users file or the password file cannot be read
     */
    ServerMetrics apply(StoreServer.Builder builder, Map<String, String> environment, OutputStream out)
            throws IOException {
        ServerMetrics metrics = null;
        if (managementPort != null) {
            builder.managementPort(managementPort).managementHost(managementHost);
        }
        if (accessLog != null) {
            builder.accessLog(accessLogFormat.apply(accessLog.equals("-") ? standardOutput(out) : fileWriter(accessLog)));
        }
        if (tlsKeystore != null) {
            char[] password = keystorePassword(environment);
            try {
                checkKeystore(tlsKeystore, password);
                builder.tls(tlsKeystore, password).tlsSniHostCheck(tlsSniHostCheck);
            } finally {
                Arrays.fill(password, '\0');
            }
            if (tlsProtocols != null) {
                List<String> versions = commaSeparated(tlsProtocols);
                builder.tlsProtocols(versions); // checks the names first
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
        if (usersFile != null) {
            builder.users(BasicUsers.load(usersFile)).publicMetadata(publicMetadata);
        } else if (publicMetadata) {
            throw new IllegalArgumentException("--public-metadata needs --users-file");
        }
        if (allowFrom != null) {
            builder.allowFrom(allowFrom);
        }
        if (trustedProxies != null) {
            builder.trustedProxies(trustedProxies);
        }
        if (managementPort != null) {
            metrics = new ServerMetrics(); // last: nothing above can fail after it is made
            metrics.addTo(builder, metricsPath);
        }
        return metrics;
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

    private static RequestLog.Writer fileWriter(String file) {
        RequestLogWriter writer = new RequestLogWriter(file);
        writer.setAppend(true);
        return writer;
    }

    /** Lines on standard output, each written whole. */
    private static RequestLog.Writer standardOutput(OutputStream out) {
        return line -> {
            byte[] bytes = (line + System.lineSeparator()).getBytes(UTF_8);
            synchronized (out) {
                out.write(bytes);
                out.flush();
            }
        };
    }

    static final class Ranges implements ITypeConverter<AddressRanges> {
        @Override
        public AddressRanges convert(String value) {
            try {
                return AddressRanges.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
