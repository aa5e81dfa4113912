package org.storeservice.jetty;

import org.eclipse.jetty.server.CustomRequestLog;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.storage.Storage;
import org.storeservice.codec.StoreCodec;

/**
 * The endpoint's Jetty server, assembled from a {@link StoreServer}'s settings in two steps, so that the part
 * that needs no storage is built while the storage opens ({@link StorageOpener}): the constructor builds the
 * server; {@link #serve(Storage)} adds the store and codec, the connectors ({@link EndpointConnectors}), the
 * handler chain and the access log. Starting and stopping it is {@link StoreServer}'s job.
 */
final class EndpointJetty {
    private final ServerSettings settings;
    private final Server server;
    private EndpointConnectors connectors;
    private DrainingHandler draining;

    EndpointJetty(ServerSettings settings) {
        this.settings = settings;
        server = new Server();
        server.setStopTimeout(settings.stopTimeout.toMillis());
        QuietJetty.quiet(server);
    }

    /**
     * Adds the connectors and the Store handler for {@code storage}.
     *
     * @throws IllegalArgumentException if the codec refuses the endpoint path, namespace or WSDL
     */
    void serve(Storage storage) {
        StoreCodec codec = codec(storage);
        // Small requests are answered on the selector threads (see StoreHandler): one selector per core lets every
        // core answer. Jetty's default, one per two cores, suits handlers that hand off.
        int selectors = Runtime.getRuntime().availableProcessors();
        connectors = EndpointConnectors.add(server, settings, selectors, QuietJetty.httpConfiguration(), true);
        if (settings.accessLog != null) {
            server.setRequestLog(new CustomRequestLog(settings.accessLog, StoreServer.ACCESS_LOG_FORMAT));
        }
        // Outermost, so that it counts every request in flight, and answers (closing the connection) during a stop.
        draining = new DrainingHandler(handlers(codec));
        server.setHandler(draining);
    }

    private StoreCodec codec(Storage storage) {
        DefaultStore store = DefaultStore.builder(storage)
                .limits(settings.storeLimits)
                .overwritePolicy(settings.overwritePolicy)
                .build();
        StoreCodec.Builder codecBuilder = StoreCodec.builder(store).endpointPath(settings.endpointPath);
        settings.codecOptions.accept(codecBuilder);
        return codecBuilder.build();
    }

    /** The Store handler, then the access checks asked for around it, cheapest refusal outermost. */
    private Handler handlers(StoreCodec codec) {
        // Other paths get a page that points to the endpoint rather than Jetty's error page.
        Handler handler = new Handler.Sequence(
                new StoreHandler(codec, settings.minRequestDataRate, settings.accessLog != null),
                new EndpointPointer(settings.endpointPath));
        if (settings.users != null) {
            handler = new BasicAuthHandler(settings.users, settings.realm, codec.endpointPath(), settings.publicMetadata, handler);
        }
        if (settings.allowFrom != null) {
            handler = new AllowListHandler(settings.allowFrom, handler); // outside authentication: refuses cheaper
        }
        return handler;
    }

    /** The outermost handler, which a stop tells to close each connection after its answer. */
    DrainingHandler draining() {
        return draining;
    }

    /** The server: assembled, not started by this class. */
    Server server() {
        return server;
    }

    /** The connectors; {@code null} until {@link #serve(Storage)}. */
    EndpointConnectors connectors() {
        return connectors;
    }
}
