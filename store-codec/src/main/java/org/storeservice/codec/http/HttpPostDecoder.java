package org.storeservice.codec.http;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.storeservice.codec.wire.ContentType;
import org.storeservice.codec.wire.Operation;
import org.storeservice.codec.wire.RequestTooLargeException;

/**
 * Decodes an HTTP POST call: parameters come only from an {@code application/x-www-form-urlencoded} body
 * (the query string is ignored, as in ASMX), in the Content-Type's charset or UTF-8. Thread-safe.
 */
final class HttpPostDecoder {
    private static final String FORM = "application/x-www-form-urlencoded";

    private final HttpParameterReader parameters;

    public HttpPostDecoder(HttpParameterReader parameters) {
        this.parameters = parameters;
    }

    /**
     * @param body the body, already limited to the request size
     * @throws RequestTooLargeException if the body is over the limit
     * @throws IOException if the body cannot be read
     */
    public HttpCall decode(Operation operation, String contentType, InputStream body) throws HttpError, IOException {
        if (!ContentType.base(contentType).equals(FORM)) {
            throw new HttpError("Request format is invalid: " + (contentType == null ? "" : contentType) + '.');
        }
        Charset charset = ContentType.charset(contentType);
        byte[] buffer = new byte[INITIAL_BUFFER];
        int length = 0;
        int n;
        // at most 8 KiB per read, as readAllBytes() asks: the size limit stops an endless body that close
        while ((n = body.read(buffer, length, Math.min(MAX_READ, buffer.length - length))) >= 0) {
            length += n;
            if (length == buffer.length) {
                buffer = grown(buffer);
            }
        }
        String form = new String(buffer, 0, length, charset != null ? charset : StandardCharsets.UTF_8);
        return parameters.read(operation, form, charset != null ? charset : StandardCharsets.UTF_8);
    }

    /**
     * A typical form is a few dozen bytes: start small and double, instead of {@code readAllBytes()}, which
     * allocates an 8 KiB chunk and a copy for every request.
     */
    private static final int INITIAL_BUFFER = 256;
    private static final int MAX_READ = 8192;
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

    private static byte[] grown(byte[] buffer) {
        if (buffer.length >= MAX_ARRAY) {
            throw new OutOfMemoryError("Required array size too large"); // as readAllBytes() says it
        }
        return Arrays.copyOf(buffer, (int) Math.min(MAX_ARRAY, 2L * buffer.length));
    }
}
