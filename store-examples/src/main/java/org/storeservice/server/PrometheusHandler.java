package org.storeservice.server;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/** Serves a Prometheus registry's scrape, in the text format, at one path of the management port. */
final class PrometheusHandler extends Handler.Abstract {
    /** The text exposition format Prometheus asks for first. */
    static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private final PrometheusMeterRegistry registry;
    private final String path;

    PrometheusHandler(PrometheusMeterRegistry registry, String path) {
        super(InvocationType.BLOCKING);
        this.registry = registry;
        this.path = path;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        if (!path.equals(request.getHttpURI().getPath())) {
            return false;
        }
        byte[] text = registry.scrape(CONTENT_TYPE).getBytes(StandardCharsets.UTF_8);
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, CONTENT_TYPE);
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, text.length);
        response.write(true, ByteBuffer.wrap(text), callback);
        return true;
    }
}
