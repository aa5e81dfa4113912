package org.storeservice.jetty;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpMethod;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.handler.ErrorHandler;
import org.eclipse.jetty.util.Callback;

/**
 * Every answer Jetty makes itself, before or around the handlers (a malformed request line, a head too large, an
 * unknown {@code Expect}, a {@code Host} the certificate does not name, a request cut off at the stop timeout), as
 * the endpoint's own refusals are: the status, its reason phrase as plain text, nothing else. Jetty's page names the
 * software and the exception ({@code HTTP ERROR 500 org.eclipse.jetty.io.EofException}) and forbids caching with a
 * header IIS never sends. A head too large gets {@code 400}, as IIS's http.sys answers it (Jetty says {@code 431}).
 */
final class BareErrorHandler extends ErrorHandler {

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        int status = response.getStatus() == HttpStatus.REQUEST_HEADER_FIELDS_TOO_LARGE_431
                ? HttpStatus.BAD_REQUEST_400 : response.getStatus();
        String reason = ReasonPhrases.of(status);
        if (reason == null) {
            reason = HttpStatus.getMessage(status);
        }
        ReasonPhrases.setStatus(response, status);
        response.getHeaders().remove(HttpHeader.CACHE_CONTROL);
        if (!HttpStatus.hasNoBody(status) && !HttpMethod.HEAD.is(request.getMethod())) {
            byte[] body = reason.getBytes(StandardCharsets.US_ASCII);
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
            response.write(true, ByteBuffer.wrap(body), callback);
        } else {
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, 0);
            response.write(true, null, callback);
        }
        return true;
    }
}
