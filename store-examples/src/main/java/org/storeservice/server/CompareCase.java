package org.storeservice.server;

import java.net.URI;
import java.util.List;
import java.util.Map;

/**
 * One request that {@code compare} sends to both endpoints.
 *
 * @param name what the report calls it; with a key prefix, also the key a write case writes
 * @param method the HTTP method
 * @param pathSuffix appended to the endpoint's path: {@code ""}, {@code "/WriteString"}, {@code "/"}
 * @param rawQuery the query, already percent-encoded, or {@code null} for none
 * @param headers request headers, in order (no Content-Type header unless listed)
 * @param body the request body as UTF-8, or {@code null} for none
 * @param writes whether the request stores an entry (sent only with {@code --include-writes})
 */
record CompareCase(String name, String method, String pathSuffix, String rawQuery, List<Map.Entry<String, String>> headers,
        String body, boolean writes) {
    CompareCase {
        headers = List.copyOf(headers);
    }

    /** The request's URI on {@code endpoint} (e.g. {@code http://host/API/Store.asmx}). */
    URI target(URI endpoint) {
        String path = endpoint.getRawPath() + pathSuffix;
        return URI.create(endpoint.getScheme() + "://" + endpoint.getRawAuthority() + path
                + (rawQuery == null ? "" : "?" + rawQuery));
    }
}
