package org.storeservice.codec.metadata;

import java.util.Locale;
import org.storeservice.codec.CodecRequest;

/**
 * Where the client reached the service, as ASMX's {@code Request.Url} gives it: the scheme and the Host
 * header, normalized as {@code System.Uri} does (host lower-cased, default port dropped) and
 * percent-encoded so that any Host value makes a syntactically valid URI. A request without a usable
 * Host falls back to {@code localhost}. Immutable.
 *
 * @param scheme    {@code http} or {@code https} (another well-formed scheme is kept as it is)
 * @param authority host and non-default port, percent-encoded: {@code localhost:8080} (IPv6 literals keep
 *     their brackets)
 */
record MetadataOrigin(String scheme, String authority) {
    private static final String FALLBACK_HOST = "localhost";

    static MetadataOrigin of(CodecRequest request) {
        String scheme = request.scheme().toLowerCase(Locale.ROOT);
        if (!scheme.matches("[a-z][a-z0-9+.-]*")) {
            scheme = "http";
        }
        String header = request.header("Host");
        String hostAndPort = header == null ? "" : header.strip().toLowerCase(Locale.ROOT);
        if (hostAndPort.isEmpty()) {
            hostAndPort = FALLBACK_HOST;
        }
        int portStart = hostAndPort.startsWith("[") ? hostAndPort.indexOf("]:") + 1 : hostAndPort.lastIndexOf(':');
        String host = hostAndPort;
        String port = "";
        if (portStart > 0 && hostAndPort.substring(portStart + 1).chars().allMatch(c -> c >= '0' && c <= '9')) {
            host = hostAndPort.substring(0, portStart);
            port = hostAndPort.substring(portStart + 1);
        }
        if (port.equals(defaultPort(scheme))) {
            port = "";
        }
        boolean ipLiteral = host.startsWith("[") && host.endsWith("]");
        host = MetadataEscaping.percentEncode(host, ipLiteral ? "[]:" : "");
        return new MetadataOrigin(scheme, port.isEmpty() ? host : host + ":" + port);
    }

    /** The absolute URI of {@code encodedPath} (already percent-encoded) at this origin. */
    String address(String encodedPath) {
        return scheme + "://" + authority + encodedPath;
    }

    /** The cache key: scheme and authority. */
    String key() {
        return scheme + "://" + authority;
    }

    private static String defaultPort(String scheme) {
        return switch (scheme) {
            case "http" -> "80";
            case "https" -> "443";
            default -> "";
        };
    }
}
