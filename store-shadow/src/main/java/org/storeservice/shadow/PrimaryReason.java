package org.storeservice.shadow;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.server.HttpStream;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Sends the primary's own reason phrase in the status line ({@code 500 Internal Server Error}, where Jetty would say
 * {@code Server Error}): .NET clients show it. Jetty 12 core has no setter for the reason, so this wraps the request's
 * {@link HttpStream} and replaces the response's {@link MetaData.Response} as it is committed. HTTP/1.x only; HTTP/2
 * has no reason phrase.
 */
final class PrimaryReason extends HttpStream.Wrapper {
    private final String reason;

    private PrimaryReason(HttpStream wrapped, String reason) {
        super(wrapped);
        this.reason = reason;
    }

    /** Sets {@code response}'s status, and its reason phrase where the primary's is not the one Jetty would send. */
    static void setStatus(Response response, int status, String reason) {
        response.setStatus(status);
        if (reason != null && !reason.equals(HttpStatus.getMessage(status))) {
            response.getRequest().addHttpStreamWrapper(stream -> new PrimaryReason(stream, reason));
        }
    }

    @Override
    public void send(MetaData.Request request, MetaData.Response response, boolean last, ByteBuffer content,
            Callback callback) {
        MetaData.Response sent = response == null ? null : new MetaData.Response(response.getStatus(), reason,
                response.getHttpVersion(), response.getHttpFields(), response.getContentLength(),
                response.getTrailersSupplier());
        super.send(request, sent, last, content, callback);
    }
}
