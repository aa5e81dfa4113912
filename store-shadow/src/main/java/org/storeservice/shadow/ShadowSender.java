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
    private final AcceptRules accept;
    private final Reports reports;
    private final long timeoutMillis;
    private final int maxAnswerBytes;
    /** Reads the shadow's own address in its metadata answers as the client's, as the primary's was. */
    private final AddressRewriter shadowAddress;
    private ShadowQueue queue;

    ShadowSender(Upstream shadow, String primaryEndpointPath, AnswerComparison comparison, AcceptRules accept,
            Reports reports, long timeoutMillis, int maxAnswerBytes) {
        this.accept = accept;
        this.shadow = shadow;
        this.samePath = shadow.endpointPath().equals(primaryEndpointPath);
        this.comparison = comparison;
        this.reports = reports;
        this.timeoutMillis = timeoutMillis;
        this.maxAnswerBytes = maxAnswerBytes;
        this.shadowAddress = new AddressRewriter(shadow.endpoint());
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
            if (mirror.clientAddress() != null && answer.complete()) {
                answer = clientsAddress(answer, mirror.clientAddress());
            }
            List<Difference> differences = comparison.differences(mirror.primary(), answer, mirror.request().writes());
            if (differences.isEmpty()) {
                reports.matched(mirror);
            } else {
                reports.differing(mirror, answer, differences, accept.accepted(mirror.request(), differences));
            }
        } finally {
            mirror.close();
            queue.sent(mirror);
        }
    }

    /** The shadow's metadata answer naming the client's address where it named its own, as the primary's does. */
    private Answer clientsAddress(Answer answer, String clientAddress) {
        int scheme = clientAddress.indexOf("://");
        byte[] body = shadowAddress.rewrite(answer.body(), clientAddress.substring(0, scheme),
                clientAddress.substring(scheme + 3));
        return body == answer.body() ? answer
                : new Answer(answer.status(), answer.headers(), body, body.length, AnswerCopy.sha256Of(body), null);
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
