package org.storeservice.shadow;

import java.util.List;
import java.util.Map;

/**
 * One service's answer to a request, as the proxy kept it for the comparison: the whole body up to a bound, and its
 * length and SHA-256 in any case.
 *
 * @param status the status code, 0 when there was no answer
 * @param headers the response headers, names as sent, in order
 * @param body the body's first bytes: the whole body when {@link #complete()}
 * @param length the body's whole length
 * @param sha256 the SHA-256 of the whole body; {@code null} for a complete body, whose hash is computed when asked for
 *     (it is needed only in a report: most answers are compared byte for byte and never hashed)
 * @param failure why there was no (whole) answer, or {@code null}
 */
record Answer(int status, List<Map.Entry<String, String>> headers, byte[] body, long length, byte[] sha256,
        String failure) {
    Answer {
        headers = List.copyOf(headers);
    }

    static Answer failed(String why) {
        return new Answer(0, List.of(), new byte[0], 0, AnswerCopy.sha256Of(new byte[0]), why);
    }

    /** The SHA-256 of the whole body. */
    @Override
    public byte[] sha256() {
        return sha256 != null ? sha256 : AnswerCopy.sha256Of(body);
    }

    /** Whether {@link #body()} holds the whole body. */
    boolean complete() {
        return body.length == length;
    }

    /** The values of header {@code name}, case-insensitively, joined with {@code ", "}; {@code null} if absent. */
    String header(String name) {
        String joined = null;
        for (Map.Entry<String, String> header : headers) {
            if (header.getKey().equalsIgnoreCase(name)) {
                joined = joined == null ? header.getValue() : joined + ", " + header.getValue();
            }
        }
        return joined;
    }
}
