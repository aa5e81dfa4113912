package org.storeservice.jetty;

import java.util.Objects;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.server.ForwardedRequestCustomizer;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Request;

/**
 * Honours {@code Forwarded} (RFC 7239) and {@code X-Forwarded-Proto}, {@code -Host}, {@code -Port} and
 * {@code -For}, through Jetty's {@link ForwardedRequestCustomizer}, but only from the proxies in a trusted
 * set: Jetty's customizer believes any sender, so anyone could make the WSDL advertise their own host. From a
 * trusted proxy the request takes the scheme, host, port and client address the headers name, so the WSDL,
 * disco and help pages advertise the address clients must call, and an allow-list sees the real client.
 * From any other sender the headers are ignored.
 *
 * <p>Jetty's customizer replaces the {@code Host} header as well, which the codec reads. Thread-safe.
 */
public final class TrustedProxyCustomizer implements HttpConfiguration.Customizer {
    private final AddressRanges trustedProxies;
    private final ForwardedRequestCustomizer forwarded = new ForwardedRequestCustomizer();

    /**
     * Believes forwarded headers from {@code trustedProxies} only.
     *
     * @param trustedProxies the proxies' address ranges
     */
    public TrustedProxyCustomizer(AddressRanges trustedProxies) {
        this.trustedProxies = Objects.requireNonNull(trustedProxies, "trustedProxies");
    }

    /** {@return the proxies believed} */
    public AddressRanges trustedProxies() {
        return trustedProxies;
    }

    @Override
    public Request customize(Request request, HttpFields.Mutable responseHeaders) {
        if (!trustedProxies.contains(request.getConnectionMetaData().getRemoteSocketAddress())) {
            return request;
        }
        return forwarded.customize(request, responseHeaders);
    }

    @Override
    public String toString() {
        return "TrustedProxyCustomizer{" + trustedProxies + '}';
    }
}
