package org.storeservice.servlet;

import java.net.URI;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.startup.Tomcat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.Storage;
import org.storeservice.codec.CodecLimits;
import org.storeservice.testkit.wire.EndpointWireTest;

/**
 * The wire cases every host shares, on embedded Tomcat: the servlet built from a store, registered with
 * {@link StoreServlet#register} in a context at {@code /app}, so the endpoint is {@code /app/API/Store.asmx}.
 */
class TomcatWireTest extends EndpointWireTest {
    @TempDir
    static Path baseDir;
    private static MemoryStorage storage;
    private static Tomcat tomcat;

    @BeforeAll
    static void start() throws LifecycleException {
        storage = new MemoryStorage();
        StoreServlet servlet = StoreServlet.builder(DefaultStore.of(storage))
                .limits(CodecLimits.builder().maxRequestBytes(MAX_REQUEST_BYTES).build())
                .build();
        tomcat = new Tomcat();
        tomcat.setBaseDir(baseDir.toString());
        tomcat.setHostname("127.0.0.1");
        tomcat.setPort(0);
        tomcat.getConnector(); // creates the default HTTP/1.1 connector
        Context context = tomcat.addContext("/app", baseDir.toString());
        context.addServletContainerInitializer(
                (classes, servletContext) -> StoreServlet.register(servletContext, "/API/Store.asmx", servlet), null);
        tomcat.start();
    }

    @AfterAll
    static void stop() throws LifecycleException {
        tomcat.stop();
        tomcat.destroy();
        storage.close();
    }

    @Override
    protected URI endpoint() {
        return URI.create("http://127.0.0.1:" + tomcat.getConnector().getLocalPort() + "/app/API/Store.asmx");
    }

    @Override
    protected Storage storage() {
        return storage;
    }
}
