package org.storeservice.codec;

import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;
import org.storeservice.api.Status;

/**
 * Writes the responses of the HTTP GET and POST bindings as ASMX does (wire notes §5–6): the result as
 * an indented XmlSerializer document {@code <Status xmlns="N">}, built once per codec, and errors as
 * 500 text/plain, HTML-encoded, in ASP.NET's remote form (never a stack trace). Thread-safe.
 */
final class HttpEncoder {
    private final Map<Status, CodecResponse> successes = new EnumMap<>(Status.class);

    HttpEncoder(String namespace) {
        for (Status status : Status.values()) {
            String body = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<Status xmlns=\""
                    + TextEscaping.xmlAttribute(namespace) + "\">" + status.wireName() + "</Status>";
            successes.put(status, CodecResponse.builder(200)
                    .header("Cache-Control", "private, max-age=0")
                    .header("Content-Type", "text/xml; charset=utf-8")
                    .body(body.getBytes(StandardCharsets.UTF_8))
                    .build());
        }
    }

    CodecResponse success(Status status) {
        return successes.get(status);
    }

    CodecResponse error(HttpError error) {
        return plainTextError(error.text());
    }

    /**
     * An error as ASMX's {@code ServerProtocol.WriteException} writes it for the HTTP and Discovery
     * protocols: 500, text/plain, the message HTML-encoded ({@code HttpUtility.HtmlEncode}), then CRLF.
     */
    static CodecResponse plainTextError(String message) {
        return CodecResponse.builder(500)
                .header("Cache-Control", "private")
                .header("Content-Type", "text/plain; charset=utf-8")
                .body((TextEscaping.html(message) + "\r\n").getBytes(StandardCharsets.UTF_8))
                .build();
    }
}
