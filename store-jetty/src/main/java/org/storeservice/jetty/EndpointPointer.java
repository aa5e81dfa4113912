package org.storeservice.jetty;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.StringUtil;

/**
 * The ready server's answer for every path outside the endpoint ({@code /}, a mistyped path): 404 with a small
 * UTF-8 page that links to the endpoint, instead of Jetty's ISO-8859-1 error page. It names no software.
 * Immutable and thread-safe.
 */
final class EndpointPointer extends Handler.Abstract.NonBlocking {
    private final byte[] page;

    EndpointPointer(String endpointPath) {
        String path = StringUtil.sanitizeXmlString(endpointPath);
        this.page = ("<!DOCTYPE html>\r\n<html>\r\n<head><meta charset=\"utf-8\"><title>Not Found</title></head>\r\n"
                + "<body>\r\n<h1>Not Found</h1>\r\n<p>Nothing is served at this address. The service is at "
                + "<a href=\"" + path + "\">" + path + "</a>.</p>\r\n</body>\r\n</html>\r\n")
                .getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        ReasonPhrases.setStatus(response, 404);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/html; charset=utf-8");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, page.length);
        response.write(true, ByteBuffer.wrap(page), callback);
        return true;
    }
}
