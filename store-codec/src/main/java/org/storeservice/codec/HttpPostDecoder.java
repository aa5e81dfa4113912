package org.storeservice.codec;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * Decodes an HTTP POST call: parameters come only from an {@code application/x-www-form-urlencoded} body
 * (the query string is ignored, as in ASMX), in the Content-Type's charset or UTF-8. Thread-safe.
 */
final class HttpPostDecoder {
    private static final String FORM = "application/x-www-form-urlencoded";

    private final HttpParameterReader parameters;

    HttpPostDecoder(HttpParameterReader parameters) {
        this.parameters = parameters;
    }

    /**
     * @param body the body, already limited to the request size
     * @throws RequestTooLargeException if the body is over the limit
     * @throws IOException if the body cannot be read
     */
    HttpCall decode(Operation operation, String contentType, InputStream body) throws HttpError, IOException {
        if (!ContentType.base(contentType).equals(FORM)) {
            throw new HttpError("Request format is invalid: " + (contentType == null ? "" : contentType) + '.');
        }
        Charset charset = ContentType.charset(contentType);
        String form = new String(body.readAllBytes(), charset != null ? charset : StandardCharsets.UTF_8);
        return parameters.read(operation, form, charset != null ? charset : StandardCharsets.UTF_8);
    }
}
