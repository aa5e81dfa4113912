package org.storeservice.shadow;

import java.net.URI;
import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.Callback;

/**
 * A small real HTTP server on an ephemeral loopback port standing in for a legacy ASMX service where Store cannot: it
 * answers every request with what {@link Answerer} makes of it (as ASMX answers what Store refuses, or names its own
 * listener's address in its WSDL as Mono and IIS do). Stopped on {@link #close()}.
 */
final class LegacyPrimary implements AutoCloseable {
    /** One answer: status, Content-Type and body. */
    record Reply(int status, String contentType, byte[] body) {
    }

    /** Makes the answer to {@code request}; {@code port} is the listener's own port. */
    @FunctionalInterface
    interface Answerer {
        Reply answer(Request request, int port);
    }

    private final Server server = new Server();
    private final ServerConnector connector = new ServerConnector(server);

    LegacyPrimary(Answerer answerer) throws Exception {
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        server.addConnector(connector);
        server.setHandler(new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) {
                Reply reply = answerer.answer(request, connector.getLocalPort());
                response.setStatus(reply.status());
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, reply.contentType());
                response.write(true, ByteBuffer.wrap(reply.body()), callback);
                return true;
            }
        });
        server.start();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/API/Store.asmx");
    }

    int port() {
        return connector.getLocalPort();
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("stopping the legacy primary", e);
        }
    }
}
