package org.storeservice.shadow;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Result;

/**
 * Sends one queued copy to the shadow, once, and compares its answer with the primary's. Its answer is collected as it
 * streams in ({@link AnswerCopy}: the first bytes and a hash), never followed by another try: a copy the shadow did
 * not answer is reported and its key listed. Tells the queue when it is done. Thread-safe.
 */
final class ShadowSender {
    private final Upstream shadow;
    /** Whether the shadow's endpoint path is the primary's: it is then sent the path as the client wrote it. */
    private final boolean samePath;
    private final AnswerComparison comparison;
    private final Reports reports;
    private final long timeoutMillis;
    private final int maxAnswerBytes;
    private ShadowQueue queue;

    ShadowSender(Upstream shadow, String primaryEndpointPath, AnswerComparison comparison, Reports reports,
            long timeoutMillis, int maxAnswerBytes) {
        this.shadow = shadow;
        this.samePath = shadow.endpointPath().equals(primaryEndpointPath);
        this.comparison = comparison;
        this.reports = reports;
        this.timeoutMillis = timeoutMillis;
        this.maxAnswerBytes = maxAnswerBytes;
    }

    /** The queue to tell; set once, before the first copy. */
    void queue(ShadowQueue queue) {
        this.queue = queue;
    }

    void send(Mirror mirror) {
        Request request;
        try {
            String path = samePath ? mirror.rawPath() : shadow.endpointPath() + mirror.pathSuffix();
            request = shadow.newRequest(mirror.method(), path, mirror.rawQuery(),
                    mirror.headers(), timeoutMillis);
            if (mirror.body() != null) {
                request.body(mirror.body().content());
            }
        } catch (IOException | RuntimeException e) {
            finish(mirror, null, e);
            return;
        }
        AnswerCopy answer = new AnswerCopy(maxAnswerBytes);
        request.timeout(timeoutMillis, TimeUnit.MILLISECONDS)
                .onResponseHeaders(response -> answer.head(response.getStatus(), response.getHeaders()))
                .onResponseContent((response, content) -> answer.append(content))
                .send(result -> finish(mirror, answered(result) ? answer.answer() : null, result.getFailure()));
    }

    /** Whether the whole answer came back, whatever became of the request's own sending. */
    static boolean answered(Result result) {
        return result.getResponse() != null && result.getResponse().getStatus() > 0 && result.getResponseFailure() == null;
    }

    private void finish(Mirror mirror, Answer answer, Throwable failure) {
        try {
            if (answer == null) {
                reports.shadowFailed(mirror, describe(failure));
                return;
            }
            List<String> differences = comparison.differences(mirror.primary(), answer);
            if (differences.isEmpty()) {
                reports.matched(mirror);
            } else {
                reports.differing(mirror, answer, differences);
            }
        } finally {
            mirror.close();
            queue.sent(mirror);
        }
    }

    /** A failure in a few words: its type and message, without a stack. */
    static String describe(Throwable failure) {
        if (failure == null) {
            return "no answer";
        }
        if (failure instanceof TimeoutException) {
            return "no answer within the time-out";
        }
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return root.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }
}
