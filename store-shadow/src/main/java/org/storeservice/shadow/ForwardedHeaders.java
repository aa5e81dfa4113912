package org.storeservice.shadow;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.storeservice.jetty.AddressRanges;

/**
 * The request headers the proxy sends on, to the primary and to the shadow alike: the client's own, {@code Host}
 * included (so the WSDL and help pages name the address the client called), less those that belong to one hop
 * ({@code Connection} and what it names, {@code Keep-Alive}, {@code Transfer-Encoding}, {@code TE}, {@code Trailer},
 * {@code Upgrade}, {@code Proxy-*}, {@code Expect}) and {@code Content-Length} (set from the body sent); plus
 * {@code X-Forwarded-For} with the client's address. A metadata request goes without {@code Accept-Encoding}
 * ({@link #askForIdentity}). {@code Forwarded} and {@code X-Forwarded-*} from a trusted
 * proxy are passed on (the client's address appended to its {@code X-Forwarded-For}); from anyone else they are
 * dropped, so a client cannot choose the address both services see. From a trusted proxy they also name the address a
 * metadata answer names ({@link #calledAddress}). Immutable and thread-safe.
 */
final class ForwardedHeaders {
    private static final Set<String> ONE_HOP = Set.of("connection", "keep-alive", "proxy-connection",
            "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade", "expect",
            "content-length");
    private static final String FORWARDED_FOR = "x-forwarded-for";
    private static final Pattern SCHEME = Pattern.compile("https?", Pattern.CASE_INSENSITIVE);
    /** A host (a name, an IPv4 address or a bracketed IPv6 one) and an optional port, nothing else. */
    private static final Pattern HOST = Pattern.compile("(\\[[0-9A-Fa-f:.]+\\]|[A-Za-z0-9.-]+)(:[0-9]{1,5})?");
    private static final Pattern PORT = Pattern.compile("[0-9]{1,5}");

    private final AddressRanges trustedProxies;

    /** @param trustedProxies whose forwarded headers are passed on; {@code null} for nobody's */
    ForwardedHeaders(AddressRanges trustedProxies) {
        this.trustedProxies = trustedProxies;
    }

    List<HttpField> of(HttpFields headers, SocketAddress client) {
        boolean trusted = trustedProxies != null && trustedProxies.contains(client);
        Set<String> named = connectionOptions(headers);
        List<HttpField> forwarded = new ArrayList<>(headers.size() + 1);
        String forwardedFor = null;
        for (HttpField field : headers) {
            String name = field.getLowerCaseName();
            if (ONE_HOP.contains(name) || named.contains(name)) {
                continue;
            }
            if (name.equals("forwarded") || name.startsWith("x-forwarded-")) {
                if (!trusted) {
                    continue;
                }
                if (name.equals(FORWARDED_FOR)) {
                    forwardedFor = forwardedFor == null ? field.getValue() : forwardedFor + ", " + field.getValue();
                    continue;
                }
            }
            forwarded.add(field);
        }
        String address = address(client);
        forwarded.add(new HttpField(HttpHeader.X_FORWARDED_FOR, forwardedFor == null ? address : forwardedFor + ", " + address));
        return forwarded;
    }

    /** How a client called: {@code http} or {@code https}, and the host (and port, where not the scheme's default). */
    record CalledAddress(String scheme, String host) {
    }

    /**
     * How the client called, for a metadata answer's addresses: {@code scheme} and {@code host} as the proxy was called,
     * unless the sender is a trusted proxy (a load balancer terminating TLS) whose {@code Forwarded} ({@code proto},
     * {@code host}) or {@code X-Forwarded-Proto}, {@code -Host} and {@code -Port} name another; a value that is not a
     * scheme, host or port is ignored.
     */
    CalledAddress calledAddress(HttpFields headers, SocketAddress client, String scheme, String host) {
        if (trustedProxies == null || !trustedProxies.contains(client)) {
            return new CalledAddress(scheme, host);
        }
        String forwarded = first(headers.get(HttpHeader.FORWARDED));
        String proto = forwarded != null ? parameter(forwarded, "proto") : first(headers.get(HttpHeader.X_FORWARDED_PROTO));
        String forwardedHost = forwarded != null ? parameter(forwarded, "host") : first(headers.get(HttpHeader.X_FORWARDED_HOST));
        String port = forwarded != null ? null : first(headers.get(HttpHeader.X_FORWARDED_PORT));
        String calledScheme = proto != null && SCHEME.matcher(proto).matches() ? proto.toLowerCase(Locale.ROOT) : scheme;
        String calledHost = forwardedHost != null && HOST.matcher(forwardedHost).matches() ? forwardedHost : host;
        if (port != null && PORT.matcher(port).matches()) {
            String name = AddressRewriter.hostName(calledHost);
            boolean schemeDefault = port.equals(calledScheme.equals("https") ? "443" : "80");
            calledHost = schemeDefault ? name : name + ":" + port;
        }
        return new CalledAddress(calledScheme, calledHost);
    }

    /** A list header's first element, stripped; {@code null} if none. */
    private static String first(String value) {
        if (value == null) {
            return null;
        }
        int comma = value.indexOf(',');
        String element = (comma < 0 ? value : value.substring(0, comma)).strip();
        return element.isEmpty() ? null : element;
    }

    /** A {@code Forwarded} element's parameter, unquoted; {@code null} if absent. */
    private static String parameter(String element, String name) {
        for (String pair : element.split(";")) {
            int equals = pair.indexOf('=');
            if (equals > 0 && pair.substring(0, equals).strip().equalsIgnoreCase(name)) {
                String value = pair.substring(equals + 1).strip();
                return value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")
                        ? value.substring(1, value.length() - 1) : value;
            }
        }
        return null;
    }

    /**
     * Removes {@code Accept-Encoding} from {@code forwarded}, a metadata request's headers: a compressed WSDL, disco or
     * help page (zeep asks for gzip; IIS compresses dynamic answers) could not have its addresses rewritten, so the
     * primary is asked for the page as it is. The proxy's client gets it uncompressed, which every client reads.
     */
    static void askForIdentity(List<HttpField> forwarded) {
        forwarded.removeIf(field -> field.getHeader() == HttpHeader.ACCEPT_ENCODING);
    }

    /** The header names the {@code Connection} header lists: they belong to this hop too. */
    private static Set<String> connectionOptions(HttpFields headers) {
        Set<String> named = new HashSet<>();
        for (String value : headers.getValuesList(HttpHeader.CONNECTION)) {
            for (String token : value.split(",")) {
                named.add(token.strip().toLowerCase(Locale.ROOT));
            }
        }
        return named;
    }

    private static String address(SocketAddress client) {
        if (client instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress();
        }
        return String.valueOf(client);
    }
}
