package org.storeservice.codec.http;

import java.nio.charset.StandardCharsets;
import org.storeservice.codec.wire.Operation;

/**
 * Decodes an HTTP GET call ({@code GET /API/Store.asmx/WriteString?key=k&value=v}): parameters come only
 * from the query string, URL-decoded as UTF-8. Thread-safe.
 */
final class HttpGetDecoder {
    private final HttpParameterReader parameters;

    public HttpGetDecoder(HttpParameterReader parameters) {
        this.parameters = parameters;
    }

    public HttpCall decode(Operation operation, String rawQuery) throws HttpError {
        return parameters.read(operation, rawQuery, StandardCharsets.UTF_8);
    }
}
