package org.storeservice.jetty;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Lets through only requests from client addresses in an allow-list; any other gets {@code 403} before its
 * body is read, and its connection is closed. The address is the connection's peer, or the client a
 * {@linkplain TrustedProxyCustomizer trusted proxy} names. Immutable and thread-safe.
 *
 * <p>Not Jetty's {@code InetAccessHandler}, although the matching is Jetty's ({@link AddressRanges}): that handler
 * resolves a forwarded client named by host name through DNS on every request, and answers through the error
 * handler without closing the connection. This one never asks DNS and closes the connection it refuses.
 */
public final class AllowListHandler extends Handler.Wrapper {
    private static final Logger log = LoggerFactory.getLogger(AllowListHandler.class);
    private static final byte[] FORBIDDEN_BODY = "Forbidden".getBytes(StandardCharsets.UTF_8);

    private final AddressRanges allowed;

    /**
     * Passes requests from {@code allowed} on to {@code handler}; others get {@code 403}.
     *
     * @param allowed the clients' addresses let through
     * @param handler what serves them
     */
    public AllowListHandler(AddressRanges allowed, Handler handler) {
        super(Objects.requireNonNull(handler, "handler"));
        this.allowed = Objects.requireNonNull(allowed, "allowed");
    }

    /** {@return the addresses let through} */
    public AddressRanges allowed() {
        return allowed;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        if (allowed.contains(request.getConnectionMetaData().getRemoteSocketAddress())) {
            return super.handle(request, response, callback);
        }
        log.debug("Refused {} {} from {}: not in {}", request.getMethod(), request.getHttpURI().getPath(),
                Request.getRemoteAddr(request), allowed);
        response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
        StoreHandler.writePlain(403, FORBIDDEN_BODY, response, callback);
        return true;
    }

    @Override
    public String toString() {
        return "AllowListHandler{" + allowed + '}';
    }
}
