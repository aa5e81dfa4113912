package org.storeservice.servlet;

import java.net.URI;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.StoreCodec;
import org.storeservice.testkit.wire.EndpointWireTest;

/** A Jetty EE10 server on an ephemeral port serving {@link StoreServlet} over a memory storage, for the wire cases. */
final class JettyEe10Host {
    final MemoryStorage storage = new MemoryStorage();
    private final Server jetty = new Server();
    private final ServerConnector connector = new ServerConnector(jetty);
    private final String endpointPath;

    /**
     * Serves the servlet at {@code mapping} ({@code /x/Store.asmx}, mapped as {@code /x/Store.asmx/*}) in a context at
     * {@code contextPath}, with or without async support on its registration.
     */
    JettyEe10Host(String contextPath, String mapping, boolean asyncSupported) throws Exception {
        endpointPath = (contextPath.equals("/") ? "" : contextPath) + mapping;
        StoreCodec codec = StoreCodec.builder(DefaultStore.of(storage))
                .endpointPath(endpointPath)
                .limits(CodecLimits.builder().maxRequestBytes(EndpointWireTest.MAX_REQUEST_BYTES).build())
                .build();
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler(contextPath);
        ServletHolder holder = new ServletHolder(StoreServlet.of(codec));
        holder.setInitOrder(1);
        holder.setAsyncSupported(asyncSupported); // Jetty's default is false: see StoreServlet
        context.addServlet(holder, mapping + "/*");
        jetty.setHandler(context);
        jetty.start();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + connector.getLocalPort() + endpointPath);
    }

    void close() throws Exception {
        jetty.stop();
        storage.close();
    }
}
