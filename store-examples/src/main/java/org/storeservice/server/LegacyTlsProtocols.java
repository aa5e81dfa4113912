package org.storeservice.server;

import java.security.Security;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets this process serve TLS 1.0 and 1.1 when the operator names them ({@code --tls-protocols}), and nothing more.
 *
 * <p>The JDK disables both for every TLS connection of the JVM: they are listed in the security property
 * {@code jdk.tls.disabledAlgorithms}, which its TLS reads once, when the process first uses TLS, and which no
 * connector's settings can override. So before that first use this removes from the property the versions named,
 * and only those: everything else it lists (SSLv3, RC4, DES, 3DES, NULL and anonymous suites, weak keys, and what a
 * newer JDK adds) stays disabled. Then, so that the process's other TLS (the PostgreSQL driver's connections, any
 * HTTPS client or server) keeps offering TLS 1.2 and 1.3 alone, it sets {@code jdk.tls.client.protocols} and
 * {@code jdk.tls.server.protocols} to those, where the operator has not set them: only the endpoint, which names its
 * versions itself, serves the old ones. The server checks at start that its TLS will negotiate them.
 *
 * <p>The ready server's own business: it owns its process. A library must not change a JVM-wide policy.
 */
final class LegacyTlsProtocols {
    static final String DISABLED_ALGORITHMS = "jdk.tls.disabledAlgorithms";
    /** The JDK's own default versions, kept for every TLS use but the endpoint's. */
    static final String MODERN = "TLSv1.3,TLSv1.2";
    static final List<String> VERSION_PROPERTIES = List.of("jdk.tls.client.protocols", "jdk.tls.server.protocols");
    /** The old versions by the names an operator may give them, in lower case. */
    private static final Map<String, String> LEGACY = Map.of("tlsv1", "TLSv1", "tlsv1.0", "TLSv1", "tlsv1.1", "TLSv1.1");

    private static final Logger log = LoggerFactory.getLogger(LegacyTlsProtocols.class);

    private LegacyTlsProtocols() {
    }

    /**
     * Allows the old versions among {@code protocols} in this JVM, as the class says; nothing if there are none.
     * Call it before anything in the process uses TLS.
     */
    static void allow(List<String> protocols) {
        List<String> legacy = protocols.stream().map(p -> LEGACY.get(p.strip().toLowerCase(Locale.ROOT)))
                .filter(p -> p != null).distinct().toList();
        if (legacy.isEmpty()) {
            return;
        }
        String disabled = Security.getProperty(DISABLED_ALGORITHMS);
        if (disabled != null) {
            Security.setProperty(DISABLED_ALGORITHMS, without(disabled, legacy));
        }
        log.info("--tls-protocols: {} removed from this JVM's {}, which still disables {}", String.join(", ", legacy),
                DISABLED_ALGORITHMS, Security.getProperty(DISABLED_ALGORITHMS));
        List<String> pinned = new ArrayList<>();
        for (String property : VERSION_PROPERTIES) {
            if (System.getProperty(property) == null) {
                System.setProperty(property, MODERN);
                pinned.add(property);
            }
        }
        if (!pinned.isEmpty()) {
            log.info("This process's other TLS (its clients: the PostgreSQL driver, HTTPS) keeps {} ({}); the endpoint's"
                    + " own versions are logged as it starts", MODERN, String.join(", ", pinned));
        }
    }

    /** {@code disabled}, a {@code jdk.tls.disabledAlgorithms} value, without the entries {@code versions}. */
    static String without(String disabled, List<String> versions) {
        List<String> kept = new ArrayList<>();
        for (String entry : disabled.split(",")) {
            if (!entry.isBlank() && !versions.contains(entry.strip())) {
                kept.add(entry.strip());
            }
        }
        return String.join(", ", kept);
    }
}
