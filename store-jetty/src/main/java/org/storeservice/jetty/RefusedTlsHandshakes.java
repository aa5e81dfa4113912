package org.storeservice.jetty;

import java.util.Locale;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLEngine;
import org.eclipse.jetty.io.ssl.SslHandshakeListener;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Notices the handshakes an HTTPS connector refuses for their protocol version, so that an operator can tell which old
 * clients fail: logs them, at most one line every 10 s (naming the client's address and version, and how many more
 * were refused since the last line), and tells the {@link TlsVersionRefusals} given, which counts them. Other
 * handshake failures (a client that closes, an unknown certificate) are not its business.
 */
final class RefusedTlsHandshakes implements SslHandshakeListener {
    private static final Logger log = LoggerFactory.getLogger(RefusedTlsHandshakes.class);
    private static final long LOG_INTERVAL_NANOS = 10_000_000_000L;
    /** The JDK's words for a ClientHello whose one version (TLS 1.2 and older) the server does not serve. */
    private static final Pattern REQUESTED = Pattern.compile("Client requested protocol (\\S+) is not enabled");
    /** ... and for a ClientHello listing its versions (supported_versions, TLS 1.3's way). */
    private static final Pattern SUPPORTED = Pattern.compile("client supported protocol versions \\[([^\\]]*)\\]",
            Pattern.CASE_INSENSITIVE);

    private final Supplier<String> served;
    private final TlsVersionRefusals listener;
    private final LongSupplier nanoTime;
    private long lastLine;
    private boolean logged;
    private long unlogged;

    /**
     * @param served the versions the connector serves, as the log line says them (known once it started)
     * @param listener told of each refusal, or {@code null}
     * @param nanoTime the clock of the rate limit ({@code System::nanoTime})
     */
    RefusedTlsHandshakes(Supplier<String> served, TlsVersionRefusals listener, LongSupplier nanoTime) {
        this.served = served;
        this.listener = listener;
        this.nanoTime = nanoTime;
    }

    @Override
    public void handshakeFailed(Event event, Throwable failure) {
        String version = refusedVersion(failure);
        if (version == null) {
            return;
        }
        SSLEngine engine = event.getSSLEngine();
        String client = engine.getPeerHost() == null ? "an unknown address" : engine.getPeerHost();
        if (listener != null) {
            listener.refused(client, version);
        }
        String line = line(client, version);
        if (line != null) {
            log.warn(line);
        }
    }

    /** The log line for this refusal, or {@code null} while the last one is younger than 10 s (then it is counted). */
    synchronized String line(String client, String version) {
        long now = nanoTime.getAsLong();
        if (logged && now - lastLine < LOG_INTERVAL_NANOS) {
            unlogged++;
            return null;
        }
        String more = unlogged == 0 ? "" : "; " + unlogged + " more refused since the last such line";
        logged = true;
        lastLine = now;
        unlogged = 0;
        return "Refused a TLS handshake from " + client + ": it offered " + version + ", this port serves " + served.get()
                + more + " (see --tls-protocols, docs/operating.md)";
    }

    /** The newest version a client offered, if {@code failure} is a refusal for its version; else {@code null}. */
    static String refusedVersion(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            String message = cause.getMessage();
            if (message == null) {
                continue;
            }
            Matcher requested = REQUESTED.matcher(message);
            if (requested.find()) {
                return requested.group(1);
            }
            Matcher supported = SUPPORTED.matcher(message);
            if (supported.find()) {
                String[] versions = supported.group(1).split(",");
                String newest = null;
                for (String version : versions) {
                    String name = version.strip();
                    if (!name.isEmpty() && (newest == null || name.toLowerCase(Locale.ROOT).compareTo(
                            newest.toLowerCase(Locale.ROOT)) > 0)) {
                        newest = name; // TLSv1 < TLSv1.1 < TLSv1.2 < TLSv1.3 as strings
                    }
                }
                return newest;
            }
        }
        return null;
    }
}
