package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpHeaderValue;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * The proxy's one handler: every request, whatever its path, becomes an {@link Exchange} with the primary. The one it
 * answers itself: a body in a transfer coding other than {@code chunked} ({@code 501}, as Store answers it), which
 * Jetty does not decode and the proxy could not send on as the client sent it.
 */
final class ProxyHandler extends Handler.Abstract {
    private static final byte[] NOT_IMPLEMENTED = "Not Implemented".getBytes(US_ASCII);

    private final Exchanges exchanges;

    ProxyHandler(Exchanges exchanges) {
        this.exchanges = exchanges;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        for (String coding : request.getHeaders().getCSV(HttpHeader.TRANSFER_ENCODING, false)) {
            if (!HttpHeaderValue.CHUNKED.is(coding)) {
                response.setStatus(501);
                response.getHeaders().put(HttpHeader.CONNECTION, HttpHeaderValue.CLOSE.asString());
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, NOT_IMPLEMENTED.length);
                response.write(true, ByteBuffer.wrap(NOT_IMPLEMENTED), callback);
                return true;
            }
        }
        exchanges.start(request, response, callback);
        return true;
    }
}
