package org.storeservice.codec;

import java.nio.charset.StandardCharsets;

/**
 * Decodes an HTTP GET call ({@code GET /API/Store.asmx/WriteString?key=k&value=v}): parameters come only
 * from the query string, URL-decoded as UTF-8. Thread-safe.
 */
final class HttpGetDecoder {
    private final HttpParameterReader parameters;

    HttpGetDecoder(HttpParameterReader parameters) {
        this.parameters = parameters;
    }

    HttpCall decode(Operation operation, String rawQuery) throws HttpError {
        return parameters.read(operation, rawQuery, StandardCharsets.UTF_8);
    }
}
