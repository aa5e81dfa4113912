package org.storeservice.jetty;

/**
 * Told of each TLS handshake the endpoint refused because the client offered no version it serves (a TLS 1.0 client at
 * a port that serves TLS 1.2 and 1.3, say), for example to count them by version on the metrics. Called on a Jetty
 * thread: it must return at once. The refusals are logged besides, rate-limited, whether or not one is given.
 */
@FunctionalInterface
public interface TlsVersionRefusals {
    /**
     * One refused handshake.
     *
     * @param clientAddress the client's IP address, as a string
     * @param version the newest version the client offered: {@code SSLv3}, {@code TLSv1}, {@code TLSv1.1},
     *     {@code TLSv1.2}, {@code TLSv1.3}, or {@code other} for one the JDK does not know (never text from the
     *     client's bytes, so that a label made of it stays bounded)
     */
    void refused(String clientAddress, String version);
}
