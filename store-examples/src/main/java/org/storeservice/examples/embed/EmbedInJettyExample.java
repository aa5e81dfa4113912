package org.storeservice.examples.embed;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.nio.ByteBuffer;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.Callback;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.Storage;
import org.storeservice.codec.StoreCodec;
import org.storeservice.jetty.StoreHandler;

/**
 * How a host that already runs Jetty 12 adds the Store endpoint beside its own handlers: the
 * {@link StoreHandler} answers {@code /API/Store.asmx} and declines everything else, so the next handler in
 * the {@link Handler.Sequence} (here a {@code /health} check) gets its turn.
 *
 * <p>Run it with {@code java -cp store-server.jar org.storeservice.examples.embed.EmbedInJettyExample [port]}.
 */
public final class EmbedInJettyExample {
    private EmbedInJettyExample() {
    }

    /**
     * The host's server: the Store endpoint over {@code storage}, then {@code /health}, on {@code port}
     * ({@code 0} for any free one). The host keeps owning {@code storage}.
     */
    public static Server createServer(int port, Storage storage) {
        StoreCodec codec = StoreCodec.builder(DefaultStore.of(storage)).build();

        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        server.addConnector(connector);

        Handler.Sequence handlers = new Handler.Sequence(new StoreHandler(codec), new HealthHandler());
        // Graceful stop: requests in flight finish (up to the stop timeout) before the server stops.
        server.setHandler(new GracefulHandler(handlers));
        server.setStopTimeout(10_000);
        return server;
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8080;
        MemoryStorage storage = new MemoryStorage(); // a real host would open its durable storage here
        Server server = createServer(port, storage);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.stop();
            } catch (Exception e) {
                // the JVM is going down anyway; nothing more useful to do
            } finally {
                storage.close();
            }
        }));
        server.start();
        server.join();
    }

    /** The host's own handler: answers {@code GET /health} and declines the rest. */
    static final class HealthHandler extends Handler.Abstract.NonBlocking {
        private static final ByteBuffer OK = ByteBuffer.wrap("OK".getBytes(UTF_8)).asReadOnlyBuffer();

        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            if (!"/health".equals(Request.getPathInContext(request))) {
                return false;
            }
            response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
            response.write(true, OK.duplicate(), callback);
            return true;
        }
    }
}
