package org.storeservice.shadow;

import java.net.URI;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * One of the two services, as the proxy reaches it: its endpoint URL and an HTTP client that sends exactly what it is
 * given. Jetty's client adds things of its own by default, each of which would change what the service sees or
 * answers, so all are off: no redirects followed, no cookies kept, no {@code Accept-Encoding} (nor answers
 * decoded), no {@code User-Agent} or {@code Content-Type} of its own, no protocol handlers (401, 100-continue). It
 * never sends a request again once any of it went out.
 */
final class Upstream implements AutoCloseable {
    /**
     * How long an idle pooled connection is kept: below the idle timeouts servers close connections at (Store 30 s, IIS
     * 120 s), so that a request is rarely written to a connection the server is closing at that moment, which would
     * fail it (it is never sent again: it might be a write).
     */
    static final long POOLED_IDLE_MILLIS = 15_000;
    /** The buffer a request's head is written into: the largest Jetty's buffer pool reuses (64 KiB). */
    static final int REQUEST_HEAD_BUFFER_BYTES = 64 * 1024;

    private final URI endpoint;
    private final HttpClient client;
    private final URI origin;

    /**
     * @param name the name of its threads
     * @param maxConnections the most connections it opens to the service
     */
    Upstream(URI endpoint, String name, int maxConnections, int maxThreads) {
        this.endpoint = endpoint;
        this.origin = URI.create(endpoint.getScheme() + "://" + endpoint.getRawAuthority()); // parsed once, not per request
        QueuedThreadPool threads = new QueuedThreadPool(maxThreads, Math.min(4, maxThreads));
        threads.setName(name);
        client = new HttpClient();
        client.setExecutor(threads);
        client.setName(name);
        client.setFollowRedirects(false);
        client.setHttpCookieStore(new HttpCookieStore.Empty());
        client.getContentDecoderFactories().clear();
        client.setUserAgentField(null);
        client.setDefaultRequestContentType(null);
        client.getProtocolHandlers().clear();
        client.setMaxConnectionsPerDestination(maxConnections);
        client.setMaxRequestsQueuedPerDestination(Math.max(1024, maxConnections));
        client.setIdleTimeout(POOLED_IDLE_MILLIS);
        client.setConnectTimeout(10_000);
        client.setMaxResponseHeadersSize(64 * 1024);
        // Room for any head the proxy takes from a client (and the X-Forwarded-For it adds): with Jetty's default,
        // 4 KiB, an HTTP GET write of a longer value failed with 502 and was never sent to the service. 64 KiB is the
        // largest buffer Jetty's pool keeps for reuse: a larger one was allocated for every request, and cost more CPU
        // per request than anything else the proxy does (BENCHMARKS.md, twenty-third round).
        client.setRequestBufferSize(REQUEST_HEAD_BUFFER_BYTES);
    }

    void start() throws Exception {
        client.start();
    }

    /** The service's endpoint URL. */
    URI endpoint() {
        return endpoint;
    }

    /** Its endpoint path, as the URL has it. */
    String endpointPath() {
        return endpoint.getRawPath();
    }

    /**
     * A request for {@code rawTarget} (a raw path and query, as the client sent them) with exactly {@code headers}.
     *
     * @param idleMillis how long the exchange may see no traffic before it fails
     */
    Request newRequest(String method, String rawPath, String rawQuery, List<HttpField> headers, long idleMillis) {
        return client.newRequest(origin)
                .method(method)
                .version(HttpVersion.HTTP_1_1)
                .path(rawQuery == null ? rawPath : rawPath + "?" + rawQuery)
                .headers(fields -> {
                    fields.clear();
                    headers.forEach(fields::add);
                })
                .idleTimeout(idleMillis, TimeUnit.MILLISECONDS);
    }

    @Override
    public void close() {
        try {
            client.stop();
        } catch (Exception e) {
            throw new IllegalStateException("could not stop the HTTP client to " + endpoint, e);
        }
    }
}
