package org.storeservice.shadow;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.http.HttpField;

/**
 * One request's copy for the shadow, once the primary answered it: what to send (the same method, path below the
 * endpoint, query, forwarded headers and body) and the primary's answer to compare the shadow's with. Owns the body
 * copy until {@link #close()}.
 *
 * @param rawPath the path as the client sent it (and the primary got it)
 * @param pathSuffix the path below the endpoint path ({@code ""}, {@code "/WriteString"}, ...)
 * @param rawQuery the query as sent, or {@code null}
 * @param body the body copy, or {@code null} for none
 * @param primary the primary's answer, as the client got it
 * @param clientAddress for a metadata answer, the scheme and {@code Host} the client called
 *     ({@code http://proxy:8080}): the shadow's own address in its answer is read as this, as the primary's was; else
 *     {@code null}
 */
record Mirror(Instant time, Classification request, String method, String rawPath, String pathSuffix, String rawQuery,
        List<HttpField> headers, BodyCopy body, Answer primary, String clientAddress) implements AutoCloseable {
    /** What a copy holds besides the strings and arrays counted: its objects, roughly. */
    static final int OVERHEAD_BYTES = 512;

    Mirror {
        headers = List.copyOf(headers);
    }

    /** The request line's method and target, as the client sent them, for reports. */
    String requestLine() {
        return method + " " + rawPath + (rawQuery == null ? "" : "?" + rawQuery);
    }

    /**
     * What it holds while queued, everything counted: the request line (method, path, query), the key, the headers,
     * the body, and the primary's answer (headers and kept body), a character counted as a byte (the JDK stores these
     * strings, ASCII, one byte a character), plus {@link #OVERHEAD_BYTES}.
     */
    long bytes() {
        long held = OVERHEAD_BYTES + method.length() + rawPath.length() + pathSuffix.length()
                + (rawQuery == null ? 0 : rawQuery.length()) + (request.key() == null ? 0 : request.key().length())
                + (clientAddress == null ? 0 : clientAddress.length());
        for (HttpField header : headers) {
            held += header.getName().length() + (header.getValue() == null ? 0 : header.getValue().length());
        }
        for (Map.Entry<String, String> header : primary.headers()) {
            held += header.getKey().length() + header.getValue().length();
        }
        return held + (body == null ? 0 : body.size()) + primary.body().length;
    }

    @Override
    public void close() {
        if (body != null) {
            body.close();
        }
    }
}
