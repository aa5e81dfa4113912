package org.storeservice.shadow;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;

/**
 * Collects an answer as it streams by: the status, the headers, the body's first {@code maxBytes} bytes and the whole
 * body's length and SHA-256. The service's answers are small (a write's envelope, a fault, the WSDL: tens of KiB at
 * most), so the bound only matters for a server that answers with something else. Not thread-safe: fed by one
 * thread at a time.
 */
final class AnswerCopy {
    private final int maxBytes;
    private final ByteArrayOutputStream body = new ByteArrayOutputStream();
    /** Hashes the body once it is longer than what is kept; a complete body is hashed only if a report asks. */
    private MessageDigest digest;
    private int status;
    private List<Map.Entry<String, String>> headers = List.of();
    private long length;

    AnswerCopy(int maxBytes) {
        this.maxBytes = maxBytes;
    }

    void head(int status, HttpFields fields) {
        this.status = status;
        List<Map.Entry<String, String>> copied = new ArrayList<>(fields.size());
        for (HttpField field : fields) {
            copied.add(Map.entry(field.getName(), field.getValue() == null ? "" : field.getValue()));
        }
        headers = copied;
    }

    /** Notes the remaining bytes of {@code bytes}, leaving its position where it was. */
    void append(ByteBuffer bytes) {
        ByteBuffer view = bytes.slice();
        length += view.remaining();
        int keep = Math.min(view.remaining(), Math.max(0, maxBytes - body.size()));
        if (keep < view.remaining() && digest == null) {
            digest = sha256();
            digest.update(body.toByteArray());
        }
        if (keep > 0) {
            byte[] kept = new byte[keep];
            view.duplicate().get(kept);
            body.write(kept, 0, keep);
        }
        if (digest != null) {
            digest.update(view);
        }
    }

    /** The body's length so far. */
    long length() {
        return length;
    }

    /** The body's first bytes kept so far (at most {@code maxBytes}), copied. */
    byte[] held() {
        return body.toByteArray();
    }

    /** The answer as collected; once. */
    Answer answer() {
        return new Answer(status, headers, body.toByteArray(), length, digest == null ? null : digest.digest(), null);
    }

    static byte[] sha256Of(byte[] bytes) {
        return sha256().digest(bytes);
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
