package org.storeservice.jetty;

import java.nio.ByteBuffer;
import java.security.GeneralSecurityException;
import java.security.Security;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManager;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The endpoint's TLS: Jetty's server-side {@link SslContextFactory} with the keystore, and the TLS versions and legacy
 * cipher suites asked for ({@link StoreServer.Builder#tlsProtocols}, {@link StoreServer.Builder#tlsLegacyCipherSuites}).
 * Left at their defaults it is Jetty's, unchanged: the versions the JDK enables (TLS 1.2 and 1.3), its cipher suites
 * without those Jetty excludes.
 *
 * <p>The legacy cipher suites are served after Jetty's own choice, which the server's order prefers: a client that
 * offers a suite of that choice gets it, and only a client that offers nothing better gets a legacy one.
 *
 * <p>On start it checks that the JDK will negotiate each version asked for: TLS 1.0 and 1.1 are disabled for the
 * whole JVM by the security property {@code jdk.tls.disabledAlgorithms}, whatever a connector enables, and a server
 * that listed them while the JVM refuses them would turn the very clients they were meant for away, with nothing
 * said. So such a start fails, saying how to lift it. Once they are served, a warning names the risk.
 */
final class EndpointTls extends SslContextFactory.Server {
    private static final Logger log = LoggerFactory.getLogger(EndpointTls.class);

    /** The versions older than TLS 1.2, deprecated by RFC 8996. */
    static final Set<String> LEGACY_PROTOCOLS = Set.of("TLSv1", "TLSv1.1");
    /** The security property by which the JDK disables TLS versions (among others) for the whole JVM. */
    static final String DISABLED_ALGORITHMS = "jdk.tls.disabledAlgorithms";

    /** The SSLContext protocol Jetty asks the JDK for: every TLS version. */
    private static final String DEFAULT_PROTOCOL = "TLS";

    private final List<String> protocols;
    private final List<String> legacyCipherSuites;
    /** Jetty's choice of cipher suites followed by the legacy ones; set on start. */
    private String[] cipherSuites;
    /** The versions served, once started: those selected that this JVM negotiates. */
    private volatile List<String> served = List.of();

    EndpointTls(FrontDoorSettings settings) {
        setKeyStorePath(settings.tlsKeystore.toString());
        setKeyStoreType("PKCS12");
        setKeyStorePassword(new String(settings.tlsKeystorePassword));
        protocols = settings.tlsProtocols;
        legacyCipherSuites = settings.tlsLegacyCipherSuites != null ? settings.tlsLegacyCipherSuites
                : servesLegacy(protocols) ? StoreServer.DEFAULT_TLS_LEGACY_CIPHER_SUITES : List.of();
        if (protocols != null) {
            // Jetty reads these as patterns: quoted, "TLSv1.1" is that name and not also "TLSv1x1".
            setIncludeProtocols(protocols.stream().map(Pattern::quote).toArray(String[]::new));
        }
    }

    @Override
    protected void selectCipherSuites(String[] enabledCipherSuites, String[] supportedCipherSuites) {
        super.selectCipherSuites(enabledCipherSuites, supportedCipherSuites);
        Set<String> supported = Set.of(supportedCipherSuites);
        Set<String> selected = new LinkedHashSet<>(Arrays.asList(getSelectedCipherSuites()));
        for (String suite : legacyCipherSuites) {
            if (!supported.contains(suite)) {
                throw new IllegalArgumentException("TLS cipher suite " + suite + " is not one this JDK supports");
            }
            selected.add(suite);
        }
        cipherSuites = selected.toArray(String[]::new);
    }

    @Override
    public SSLParameters customize(SSLParameters parameters) {
        super.customize(parameters);
        if (!legacyCipherSuites.isEmpty()) {
            parameters.setCipherSuites(cipherSuites);
        }
        return parameters;
    }

    @Override
    protected void checkCiphers(SSLParameters enabled) {
        // Jetty warns of each enabled suite it would exclude: the legacy ones were asked for, and are named once below.
        SSLParameters others = new SSLParameters();
        others.setCipherSuites(Arrays.stream(enabled.getCipherSuites())
                .filter(suite -> !legacyCipherSuites.contains(suite)).toArray(String[]::new));
        super.checkCiphers(others);
    }

    /** Whether {@code protocols} (null: the JDK's) name a version older than TLS 1.2. */
    static boolean servesLegacy(List<String> protocols) {
        return protocols != null && protocols.stream().anyMatch(LEGACY_PROTOCOLS::contains);
    }

    @Override
    protected void doStart() throws Exception {
        super.doStart();
        if (protocols != null) {
            checkVersions();
        }
        List<String> selected = Arrays.asList(getSelectedProtocols());
        List<String> refused = refusedByThisJvm(selected);
        served = selected.stream().filter(version -> !refused.contains(version)).toList();
        log.info("HTTPS serves {} (no other TLS version)", servedVersions());
    }

    /** {@return the versions served, as the start log says them: {@code TLSv1.3, TLSv1.2}} */
    String servedVersions() {
        return served.isEmpty() ? "(not started)" : String.join(", ", served);
    }

    /** Fails the start where this JVM refuses a version asked for; warns of the legacy ones it serves. */
    private void checkVersions() throws GeneralSecurityException {
        List<String> refused = refusedByThisJvm(protocols);
        if (!refused.isEmpty()) {
            throw new IllegalStateException("Cannot serve " + String.join(", ", refused) + ": this JVM disables"
                    + " it for every connection (the security property " + DISABLED_ALGORITHMS + " lists it, now: "
                    + Security.getProperty(DISABLED_ALGORITHMS) + "). Remove it from that property"
                    + " before the process first uses TLS, e.g. with -Djava.security.properties=FILE (docs/operating.md,"
                    + " TLS 1.0 and 1.1 for the oldest clients)");
        }
        List<String> legacy = protocols.stream().filter(LEGACY_PROTOCOLS::contains).toList();
        if (!legacy.isEmpty()) {
            log.warn("Serving {} for legacy clients, with cipher suites {}: these versions are deprecated"
                    + " (RFC 8996) and weaker (CBC cipher suites with SHA-1 MACs, open to padding-oracle and BEAST-style"
                    + " attacks; no AEAD); keep them only until the clients that need them can use TLS 1.2",
                    String.join(", ", legacy), legacyCipherSuites);
        }
    }

    /**
     * The versions of {@code wanted} that this JVM refuses to negotiate, found as a client would find them: an engine
     * enabled for one version alone fails to start a handshake if the JVM's security policy disables it.
     */
    static List<String> refusedByThisJvm(List<String> wanted) throws GeneralSecurityException {
        // A client's context of the same provider, trusting nothing: the probe never gets as far as a certificate.
        SSLContext context = SSLContext.getInstance(DEFAULT_PROTOCOL);
        context.init(null, new TrustManager[0], null);
        List<String> refused = new ArrayList<>();
        for (String protocol : wanted) {
            SSLEngine engine = context.createSSLEngine();
            engine.setUseClientMode(true);
            engine.setEnabledProtocols(new String[] {protocol});
            engine.setEnabledCipherSuites(engine.getSupportedCipherSuites()); // the version's own suites among them
            try {
                engine.beginHandshake();
                engine.wrap(ByteBuffer.allocate(0), ByteBuffer.allocate(engine.getSession().getPacketBufferSize()));
            } catch (SSLException e) {
                refused.add(protocol);
            } finally {
                engine.closeOutbound();
            }
        }
        return refused;
    }
}
