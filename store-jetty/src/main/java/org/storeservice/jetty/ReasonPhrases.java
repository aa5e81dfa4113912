package org.storeservice.jetty;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.server.HttpStream;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Sends ASP.NET's reason phrase for each status this service answers with, where Jetty's differs: Jetty says
 * {@code 500 Server Error}, IIS and ASP.NET {@code 500 Internal Server Error}
 * ({@code HttpWorkerRequest.GetStatusDescription}; wire notes §11), and .NET clients show it. Jetty 12 core has no
 * setter for the reason, so this wraps the request's {@link HttpStream} and replaces the response's
 * {@link MetaData.Response} as it is committed. HTTP/2 and HTTP/3 carry no reason phrase; nothing changes there.
 */
final class ReasonPhrases extends HttpStream.Wrapper {
    private ReasonPhrases(HttpStream wrapped) {
        super(wrapped);
    }

    /**
     * Sets {@code response}'s status, with ASP.NET's reason phrase where Jetty's differs (a stream wrapper, so
     * only then: a 200 costs nothing more).
     */
    static void setStatus(Response response, int status) {
        response.setStatus(status);
        String reason = of(status);
        if (reason != null && !reason.equals(HttpStatus.getMessage(status))) {
            response.getRequest().addHttpStreamWrapper(ReasonPhrases::new);
        }
    }

    /** ASP.NET's reason phrase for {@code status}, for the statuses this service sends; else {@code null} (Jetty's). */
    static String of(int status) {
        return switch (status) {
            case 200 -> "OK";
            case 400 -> "Bad Request";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 408 -> "Request Timeout";
            case 413 -> "Request Entity Too Large";
            case 415 -> "Unsupported Media Type";
            case 500 -> "Internal Server Error";
            case 501 -> "Not Implemented";
            case 503 -> "Service Unavailable";
            default -> null;
        };
    }

    @Override
    public void send(MetaData.Request request, MetaData.Response response, boolean last,
            ByteBuffer content, Callback callback) {
        super.send(request, withReason(response), last, content, callback);
    }

    private static MetaData.Response withReason(MetaData.Response response) {
        if (response == null || response.getReason() != null) {
            return response;
        }
        String reason = of(response.getStatus());
        if (reason == null) {
            return response;
        }
        return new MetaData.Response(response.getStatus(), reason, response.getHttpVersion(),
                response.getHttpFields(), response.getContentLength(), response.getTrailersSupplier());
    }
}
