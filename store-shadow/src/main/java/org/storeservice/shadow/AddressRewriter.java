package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.net.URI;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Makes a metadata answer (the WSDL, the disco document, a help page) name the proxy's address where the service named
 * its own, so that a client generated from it calls the proxy and stays behind it. A service names "its own" address
 * in one of two ways: its URL's host and port, or the host of the client's {@code Host} header with its own port (as
 * Mono's ASMX does, taking the port from its listener; IIS can do the same). Each {@code http://} or {@code https://}
 * URL naming one of these (the port as written, or the scheme's default) becomes the scheme and the {@code Host} the
 * client used; every other byte stays as it was. Immutable and thread-safe.
 */
final class AddressRewriter {
    /** A URL's scheme, host (a name, an IPv4 address or a bracketed IPv6 one) and port, as far as they go. */
    private static final Pattern URL = Pattern.compile(
            "(?<![A-Za-z0-9+.-])(https?)://(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9.-]+)(?::([0-9]{1,5}))?(?![A-Za-z0-9.-]|:[0-9])",
            Pattern.CASE_INSENSITIVE);

    private final String host;
    private final int port;

    /** Rewrites what names {@code endpoint}'s service, an absolute URL. */
    AddressRewriter(URI endpoint) {
        this.host = endpoint.getHost().toLowerCase(Locale.ROOT);
        this.port = endpoint.getPort() != -1 ? endpoint.getPort() : defaultPort(endpoint.getScheme());
    }

    /**
     * {@code body} with the service's own address replaced by the client's.
     *
     * @param clientScheme {@code http} or {@code https}, as the client called the proxy
     * @param clientHost the {@code Host} the client sent (its host, and port if it named one)
     * @return {@code body} itself when nothing names the service
     */
    byte[] rewrite(byte[] body, String clientScheme, String clientHost) {
        return rewrite(body, clientHost, clientScheme, clientHost);
    }

    /**
     * {@code body} with the service's own address replaced by the client's, where the {@code Host} sent to the service
     * is not the one the client called (a trusted proxy's {@code X-Forwarded-Host} names another).
     *
     * @param sentHost the {@code Host} the service was sent: its host with the service's port names the service too
     */
    byte[] rewrite(byte[] body, String sentHost, String clientScheme, String clientHost) {
        String text = new String(body, ISO_8859_1); // one char per byte: the URLs (ASCII) are found, nothing else changes
        String clientName = hostName(clientHost).toLowerCase(Locale.ROOT);
        String sentName = hostName(sentHost).toLowerCase(Locale.ROOT);
        String replacement = clientScheme + "://" + clientHost;
        Matcher url = URL.matcher(text);
        StringBuilder rewritten = null;
        int copied = 0;
        while (url.find()) {
            String named = url.group(2).toLowerCase(Locale.ROOT);
            int namedPort = url.group(3) != null ? Integer.parseInt(url.group(3)) : defaultPort(url.group(1));
            if (namedPort != port || !named.equals(host) && !named.equals(clientName) && !named.equals(sentName)) {
                continue;
            }
            if (rewritten == null) {
                rewritten = new StringBuilder(text.length() + 64);
            }
            rewritten.append(text, copied, url.start()).append(replacement);
            copied = url.end();
        }
        if (rewritten == null) {
            return body;
        }
        return rewritten.append(text, copied, text.length()).toString().getBytes(ISO_8859_1);
    }

    /** The host of a {@code Host} header's value: before its port, brackets of an IPv6 address kept. */
    static String hostName(String hostHeader) {
        int close = hostHeader.lastIndexOf(']');
        int colon = hostHeader.lastIndexOf(':');
        return colon > close ? hostHeader.substring(0, colon) : hostHeader;
    }

    private static int defaultPort(String scheme) {
        return "https".equalsIgnoreCase(scheme) ? 443 : 80;
    }
}
