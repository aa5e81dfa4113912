package org.storeservice.jetty;

import java.util.List;
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
 * were refused since the last line), and tells the {@link TlsVersionRefusals} given, which counts them. The version it
 * tells is one of {@link #KNOWN} or {@value #OTHER}: the JDK names a version it does not know from the client's bytes
 * ({@code (D)TLS-64.0}), and a label taken from them would let any client add series to the metrics without end.
 * Other handshake failures (a client that closes, an unknown certificate) are not its business.
 */
final class RefusedTlsHandshakes implements SslHandshakeListener {
    private static final Logger log = LoggerFactory.getLogger(RefusedTlsHandshakes.class);
    private static final long LOG_INTERVAL_NANOS = 10_000_000_000L;
    /** The versions told by name, oldest first; anything else the JDK names is {@value #OTHER}. */
    static final List<String> KNOWN = List.of("SSLv3", "TLSv1", "TLSv1.1", "TLSv1.2", "TLSv1.3");
    /** The version told for one the JDK names but {@link #KNOWN} does not hold. */
    static final String OTHER = "other";
    /** How much of an unknown version's text a log line quotes. */
    private static final int MAX_QUOTED = 32;
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
        String offered = refusedVersion(failure);
        if (offered == null) {
            return;
        }
        SSLEngine engine = event.getSSLEngine();
        String client = engine.getPeerHost() == null ? "an unknown address" : engine.getPeerHost();
        String version = bounded(offered);
        if (listener != null) {
            listener.refused(client, version);
        }
        String line = line(client,
                version.equals(OTHER) ? "a version this server does not know (" + quoted(offered) + ")" : version);
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

    /** {@code version} if {@link #KNOWN} holds it, else {@value #OTHER}. */
    static String bounded(String version) {
        return KNOWN.contains(version) ? version : OTHER;
    }

    /** A version's text as the client's bytes made it, for a log line: printable ASCII, at most 32 characters. */
    static String quoted(String version) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < version.length(); i++) {
            if (text.length() >= MAX_QUOTED) {
                return text.append("...").toString();
            }
            char c = version.charAt(i);
            text.append(c >= 0x20 && c < 0x7f && c != '\\' ? String.valueOf(c) : String.format("\\u%04x", (int) c));
        }
        return text.toString();
    }

    /**
     * The newest version a client offered, as the JDK names it, if {@code failure} is a refusal for its version; else
     * {@code null}. Of several, the newest {@link #KNOWN} one; one it does not hold only when it holds none.
     */
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
                String newest = null;
                for (String version : supported.group(1).split(",")) {
                    String name = version.strip();
                    if (newest == null || KNOWN.indexOf(name) > KNOWN.indexOf(newest)) {
                        newest = name;
                    }
                }
                return newest == null || newest.isEmpty() ? OTHER : newest;
            }
        }
        return null;
    }
}
