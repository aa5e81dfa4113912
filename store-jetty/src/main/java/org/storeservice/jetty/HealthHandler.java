package org.storeservice.jetty;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.function.Supplier;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * {@code /health/live} and {@code /health/ready} for load balancers and orchestrators, as JSON:
 * {@code 200 {"status":"UP"}}, or for readiness {@code 503 {"status":"DOWN","reason":"..."}}. Live means the
 * process answers HTTP; ready means the server is neither starting nor stopping and its storage answers a
 * cheap read in time. Other paths are declined. Blocking: the readiness check waits for the storage.
 */
final class HealthHandler extends Handler.Abstract {
    static final String LIVE_PATH = "/health/live";
    static final String READY_PATH = "/health/ready";
    private static final byte[] UP = "{\"status\":\"UP\"}".getBytes(StandardCharsets.UTF_8);

    /** Why the server is not ready, or {@code null} when it is. */
    private final Supplier<String> notReadyReason;

    HealthHandler(Supplier<String> notReadyReason) {
        super(InvocationType.BLOCKING);
        this.notReadyReason = notReadyReason;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) {
        String path = request.getHttpURI().getPath();
        if (LIVE_PATH.equals(path)) {
            write(200, UP, response, callback);
            return true;
        }
        if (READY_PATH.equals(path)) {
            String reason = notReadyReason.get();
            if (reason == null) {
                write(200, UP, response, callback);
            } else {
                write(503, ("{\"status\":\"DOWN\",\"reason\":\"" + jsonEscaped(reason) + "\"}")
                        .getBytes(StandardCharsets.UTF_8), response, callback);
            }
            return true;
        }
        return false;
    }

    private static void write(int status, byte[] json, Response response, Callback callback) {
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, json.length);
        response.write(true, ByteBuffer.wrap(json), callback);
    }

    private static String jsonEscaped(String text) {
        StringBuilder out = new StringBuilder(text.length());
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}
