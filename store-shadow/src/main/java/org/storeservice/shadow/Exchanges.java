package org.storeservice.shadow;

import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.storeservice.codec.BodyMemoryBudget;

/**
 * What every {@link Exchange} shares: the primary, the classifier, the key turns, the queue for the shadow, the reports
 * and the limits. Starts one exchange per client request. Immutable (its parts are thread-safe).
 */
final class Exchanges {
    final Upstream primary;
    final RequestClassifier classifier;
    final KeyTurns turns;
    final ShadowQueue queue;
    final Reports reports;
    final BodyMemoryBudget memory;
    /** The memory every exchange's answer waiting for its client (or held to be rewritten) shares. */
    final ClientAnswerBudget answers;
    final ForwardedHeaders forwardedHeaders;
    final long maxBodyBytes;
    final int maxAnswerBytes;
    final long primaryIdleMillis;
    final FailureLog failures;
    /** Names the proxy's address in the primary's metadata answers where the primary named its own. */
    final AddressRewriter primaryAddress;

    Exchanges(Upstream primary, RequestClassifier classifier, KeyTurns turns, ShadowQueue queue, Reports reports,
            BodyMemoryBudget memory, ClientAnswerBudget answers, ForwardedHeaders forwardedHeaders, long maxBodyBytes, int maxAnswerBytes,
            long primaryIdleMillis) {
        this.primary = primary;
        this.classifier = classifier;
        this.turns = turns;
        this.queue = queue;
        this.reports = reports;
        this.memory = memory;
        this.answers = answers;
        this.forwardedHeaders = forwardedHeaders;
        this.maxBodyBytes = maxBodyBytes;
        this.maxAnswerBytes = maxAnswerBytes;
        this.primaryIdleMillis = primaryIdleMillis;
        this.failures = new FailureLog();
        this.primaryAddress = new AddressRewriter(primary.endpoint());
    }

    void start(Request request, Response response, Callback callback) {
        new Exchange(this, request, response, callback).start();
    }
}
