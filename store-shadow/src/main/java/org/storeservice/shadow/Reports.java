package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the proxy says what it found: each difference as one JSON line (the differences file, else the log), each
 * write whose copy the shadow may lack as one JSON line naming its key (the dropped-keys file, else the log), and
 * every outcome to the {@link ShadowObserver}, after its line: a count never runs ahead of the files. Thread-safe.
 */
final class Reports implements Closeable {
    private static final Logger log = LoggerFactory.getLogger(ShadowProxy.class);

    private final JsonLinesFile differences;
    private final JsonLinesFile droppedKeys;
    private final ShadowObserver observer;
    private final int maxChars;

    /**
     * @param differences the differences file, or {@code null} to log them
     * @param droppedKeys the dropped-keys file, or {@code null} to log them
     * @param maxChars the longest key, request line or body written whole; longer ones are cut, with their length
     *     and SHA-256
     */
    Reports(JsonLinesFile differences, JsonLinesFile droppedKeys, ShadowObserver observer, int maxChars) {
        this.differences = differences;
        this.droppedKeys = droppedKeys;
        this.observer = observer;
        this.maxChars = maxChars;
    }

    void matched(Mirror mirror) {
        observe(mirror.request(), ShadowResult.MATCHED);
    }

    /**
     * Writes the difference, then tells the observer: whoever counts it finds its line written.
     *
     * @param accepted the accept rules' reasons when every part of it is understood, else {@code null}
     */
    void differing(Mirror mirror, Answer shadow, List<Difference> found, List<String> accepted) {
        Classification request = mirror.request();
        JsonLine json = new JsonLine()
                .field("time", mirror.time().toString())
                .field("binding", request.binding().tag())
                .field("operation", request.operation())
                .cutField("key", request.key(), maxChars)
                .cutField("request", mirror.requestLine(), maxChars)
                .field("causes", found.stream().map(Difference::cause).toList())
                .field("differences", found.stream().map(Difference::detail).toList());
        if (accepted != null) {
            json.field("accepted", accepted);
        }
        String line = json
                .field("primary", answer(mirror.primary()))
                .field("shadow", answer(shadow))
                .end();
        if (differences == null) {
            log.warn("Difference: {}", line);
        } else {
            try {
                differences.write(line);
            } catch (IOException e) {
                log.warn("Could not write to the differences file; the difference: {}", line, e);
            }
        }
        observe(request, accepted == null ? ShadowResult.DIFFERING : ShadowResult.ACCEPTED);
    }

    /** The shadow gave no answer: a write's key is listed, since the shadow may or may not have it. */
    void shadowFailed(Mirror mirror, String why) {
        listKey(mirror.time(), mirror.request(), "the shadow gave no answer: " + why);
        observe(mirror.request(), ShadowResult.SHADOW_ERROR);
    }

    /** The copy was not sent. */
    void dropped(Mirror mirror, String why) {
        listKey(mirror.time(), mirror.request(), why);
        observe(mirror.request(), ShadowResult.DROPPED);
    }

    /** The request was not mirrored, for the reason given: a write's key is listed. */
    void dropped(Instant time, Classification request, String why) {
        listKey(time, request, why);
        observe(request, ShadowResult.DROPPED);
    }

    /** The primary gave no answer: nothing mirrored, and a write's key is listed, since the primary may have it. */
    void primaryFailed(Classification request, String why) {
        listKey(Instant.now(), request, "the primary gave no answer: " + why);
        observe(request, ShadowResult.PRIMARY_FAILED);
    }

    void notMirrored(Classification request) {
        observe(request, ShadowResult.NOT_MIRRORED);
    }

    private void observe(Classification request, ShadowResult result) {
        if (observer == null) {
            return;
        }
        try {
            observer.completed(request.binding(), request.operation(), result);
        } catch (RuntimeException e) {
            log.warn("Shadow observer {} failed", observer, e);
        }
    }

    private void listKey(Instant time, Classification request, String why) {
        if (!request.writes()) {
            return;
        }
        String line = new JsonLine()
                .field("time", time.toString())
                .field("key", request.key())
                .field("binding", request.binding().tag())
                .field("operation", request.operation())
                .field("reason", why)
                .end();
        if (droppedKeys == null) {
            log.warn("Re-sync this key, the shadow may not have its latest write: {}", line);
            return;
        }
        try {
            droppedKeys.write(line);
        } catch (IOException e) {
            log.warn("Could not write to the dropped-keys file; re-sync this key: {}", line, e);
        }
    }

    /** An answer as JSON: status, Content-Type, the body's length and SHA-256, and the body (cut) as text or base64. */
    private JsonLine answer(Answer answer) {
        JsonLine json = new JsonLine();
        if (answer.failure() != null) {
            return json.field("failure", answer.failure());
        }
        json.field("status", answer.status())
                .field("contentType", answer.header("Content-Type"))
                .field("bodyLength", answer.length())
                .field("bodySha256", HexFormat.of().formatHex(answer.sha256()));
        byte[] body = answer.body();
        int shown = Math.min(body.length, maxChars);
        String text = utf8(body, shown);
        if (text != null) {
            json.field("body", text);
        } else {
            json.field("bodyBase64", Base64.getEncoder().encodeToString(Arrays.copyOf(body, shown)));
        }
        return json.field("bodyCut", shown < answer.length());
    }

    /** The first {@code length} bytes as UTF-8 text (a character cut at the end left out), or {@code null} if not UTF-8. */
    private static String utf8(byte[] body, int length) {
        for (int drop = 0; drop < 4 && drop <= length; drop++) {
            try {
                return UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                        .onUnmappableCharacter(CodingErrorAction.REPORT)
                        .decode(ByteBuffer.wrap(body, 0, length - drop)).toString();
            } catch (CharacterCodingException e) {
                if (length == body.length) {
                    return null; // the whole body: nothing was cut, so it is not UTF-8
                }
            }
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        try {
            if (differences != null) {
                differences.close();
            }
        } finally {
            if (droppedKeys != null) {
                droppedKeys.close();
            }
        }
    }
}
