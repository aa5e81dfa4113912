package org.storeservice.codec.wire;

import java.nio.charset.StandardCharsets;
import org.storeservice.codec.CodecResponse;

/**
 * ASP.NET's HTML error page for requests no ASMX protocol takes (wire notes §0), in the remote form: the
 * message only, never a stack trace. The page layout is inferred; the status and message are ASMX's.
 */
public final class ErrorPages {
    /** ASMX's prefix for an exception the web method threw, in SOAP faults and HTTP errors alike. */
    public static final String UNABLE_TO_PROCESS = "Server was unable to process request. ---> ";
    static final String UNRECOGNIZED = "Request format is unrecognized.";

    private ErrorPages() {
    }

    /** 405 for a verb the bare endpoint path does not take. */
    public static CodecResponse methodNotAllowed() {
        return page(405, UNRECOGNIZED);
    }

    /**
     * 500 for a request without path info that no enabled protocol takes and whose last protocol had no
     * opinion (e.g. {@code GET /Store.asmx} with Documentation off).
     */
    public static CodecResponse unrecognized() {
        return page(500, UNRECOGNIZED);
    }

    /** 500 for a path info no protocol takes ({@code PUT /Store.asmx/WriteString}, {@code /Store.asmx/}). */
    public static CodecResponse unrecognizedPathInfo(String pathInfo) {
        return page(500, "Request format is unrecognized for URL unexpectedly ending in '" + pathInfo + "'.");
    }

    /** 404 for a path outside the endpoint. */
    public static CodecResponse notFound() {
        return page(404, "The resource cannot be found.");
    }

    /**
     * 400 for a query string longer than {@code maxQueryStringLength}: ASP.NET's request validation throws
     * {@code HttpException(400)} with this message before any handler runs.
     */
    public static CodecResponse queryStringTooLong() {
        return page(400, "The length of the query string for this request exceeds the configured maxQueryStringLength value.");
    }

    /**
     * 503 for a request the server has no room for now (see {@link org.storeservice.codec.CodecLimits#textMemoryWaitMillis()}):
     * the plain answer the server adapters give when no thread is free for a request, so that clients see one overload
     * answer.
     */
    public static CodecResponse serviceUnavailable() {
        return CodecResponse.builder(503)
                .header("Content-Type", "text/plain; charset=utf-8")
                .body("Service Unavailable".getBytes(StandardCharsets.UTF_8))
                .build();
    }

    /** 500 for a failure of our own; the details go to the log, not to the client. */
    public static CodecResponse internalError() {
        return page(500, "An error occurred on the server.");
    }

    /**
     * ASP.NET's default {@code Cache-Control}, for errors raised before ASMX's
     * {@code WebServiceHandler.PrepareContext} runs (while a protocol is chosen and initialised).
     */
    public static final String CACHE_PRIVATE = "private";
    /**
     * {@code Cache-Control} once {@code WebServiceHandler.PrepareContext} has set max-age 0 (wire notes §4, §11):
     * success answers, and errors raised after it, while parameters are read or results written.
     */
    public static final String CACHE_PREPARED = "private, max-age=0";

    /**
     * An error as ASMX's {@code ServerProtocol.WriteException} writes it for the HTTP and Discovery
     * protocols: 500, text/plain, the message HTML-encoded ({@code HttpUtility.HtmlEncode}), then CRLF;
     * raised before {@code PrepareContext}.
     */
    public static CodecResponse plainText(String message) {
        return plainText(message, CACHE_PRIVATE);
    }

    /** As {@link #plainText(String)}, with {@code cacheControl} ({@link #CACHE_PRIVATE} or {@link #CACHE_PREPARED}). */
    public static CodecResponse plainText(String message, String cacheControl) {
        return CodecResponse.builder(500)
                .header("Cache-Control", cacheControl)
                .header("Content-Type", "text/plain; charset=utf-8")
                .body((TextEscaping.html(message) + "\r\n").getBytes(StandardCharsets.UTF_8))
                .build();
    }

    private static CodecResponse page(int status, String message) {
        String text = TextEscaping.html(message);
        String body = "<!DOCTYPE html>\r\n<html>\r\n    <head>\r\n        <title>" + text + "</title>\r\n"
                + "    </head>\r\n    <body bgcolor=\"white\">\r\n"
                + "        <h1>Server Error in '/' Application.<hr width=100% size=1 color=silver></h1>\r\n"
                + "        <h2> <i>" + text + "</i> </h2>\r\n    </body>\r\n</html>\r\n";
        return CodecResponse.builder(status)
                .header("Cache-Control", CACHE_PRIVATE)
                .header("Content-Type", "text/html; charset=utf-8")
                .body(body.getBytes(StandardCharsets.UTF_8))
                .build();
    }
}
