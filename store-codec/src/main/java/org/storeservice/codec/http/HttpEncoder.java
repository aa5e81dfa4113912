package org.storeservice.codec.http;

import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import org.storeservice.api.Status;
import org.storeservice.codec.CodecResponse;
import org.storeservice.codec.wire.ErrorPages;
import org.storeservice.codec.wire.TextEscaping;

/**
 * Writes the responses of the HTTP GET and POST bindings as ASMX does (wire notes §5–6): the result as
 * an indented XmlSerializer document {@code <Status xmlns="N">}, built once per codec, and errors as
 * 500 text/plain, HTML-encoded, in ASP.NET's remote form (never a stack trace). Thread-safe.
 */
final class HttpEncoder {
    private final Map<Status, CodecResponse> successes = new EnumMap<>(Status.class);

    public HttpEncoder(String namespace) {
        for (Status status : Status.values()) {
            String body = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<Status xmlns=\""
                    + TextEscaping.xmlAttribute(namespace) + "\">" + status.wireName() + "</Status>";
            successes.put(status, CodecResponse.builder(200)
                    .header("Cache-Control", "private, max-age=0")
                    .header("Content-Type", "text/xml; charset=utf-8")
                    .body(body.getBytes(StandardCharsets.UTF_8))
                    .writeResult(status)
                    .build());
        }
    }

    public CodecResponse success(Status status) {
        return successes.get(status);
    }

    public CodecResponse error(HttpError error) {
        return ErrorPages.plainText(error.text());
    }
}
