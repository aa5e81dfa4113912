package org.storeservice.shadow;

import java.time.Instant;
import java.util.List;
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
 */
record Mirror(Instant time, Classification request, String method, String rawPath, String pathSuffix, String rawQuery,
        List<HttpField> headers, BodyCopy body, Answer primary) implements AutoCloseable {
    Mirror {
        headers = List.copyOf(headers);
    }

    /** The request line's method and target, as the client sent them, for reports. */
    String requestLine() {
        return method + " " + rawPath + (rawQuery == null ? "" : "?" + rawQuery);
    }

    /** What it holds while queued: the body and the primary's answer. */
    long bytes() {
        return (body == null ? 0 : body.size()) + primary.body().length;
    }

    @Override
    public void close() {
        if (body != null) {
            body.close();
        }
    }
}
