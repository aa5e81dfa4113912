package org.storeservice.servlet;

import java.net.URI;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.Storage;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.StoreCodec;
import org.storeservice.testkit.wire.EndpointWireTest;

/**
 * The wire cases every host shares, on Jetty 12's EE10 servlet container: the servlet given a codec, mapped by
 * hand at {@code /legacy/Store.asmx/*} in a context at {@code /store}, so that neither the context nor the
 * mapping is the default one.
 */
class JettyEe10WireTest extends EndpointWireTest {
    private static MemoryStorage storage;
    private static Server jetty;
    private static ServerConnector connector;

    @BeforeAll
    static void start() throws Exception {
        storage = new MemoryStorage();
        StoreCodec codec = StoreCodec.builder(DefaultStore.of(storage))
                .endpointPath("/store/legacy/Store.asmx")
                .limits(CodecLimits.builder().maxRequestBytes(MAX_REQUEST_BYTES).build())
                .build();
        jetty = new Server();
        connector = new ServerConnector(jetty);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler("/store");
        ServletHolder holder = new ServletHolder(StoreServlet.of(codec));
        holder.setInitOrder(1);
        holder.setAsyncSupported(true); // not the default in Jetty: see StoreServlet
        context.addServlet(holder, "/legacy/Store.asmx/*");
        jetty.setHandler(context);
        jetty.start();
    }

    @AfterAll
    static void stop() throws Exception {
        jetty.stop();
        storage.close();
    }

    @Override
    protected URI endpoint() {
        return URI.create("http://127.0.0.1:" + connector.getLocalPort() + "/store/legacy/Store.asmx");
    }

    @Override
    protected Storage storage() {
        return storage;
    }
}
