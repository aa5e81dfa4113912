package org.storeservice.shadow;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
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
 * dropped, so a client cannot choose the address both services see. Immutable and thread-safe.
 */
final class ForwardedHeaders {
    private static final Set<String> ONE_HOP = Set.of("connection", "keep-alive", "proxy-connection",
            "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade", "expect",
            "content-length");
    private static final String FORWARDED_FOR = "x-forwarded-for";

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
