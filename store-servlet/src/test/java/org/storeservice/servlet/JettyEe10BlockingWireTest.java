package org.storeservice.servlet;

import java.net.URI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.storeservice.api.storage.Storage;
import org.storeservice.testkit.wire.EndpointWireTest;

/**
 * The wire cases every host shares, on a registration without async support (Jetty's default for a
 * {@code ServletHolder}): the servlet then fills the same body buffer from the blocking stream, and must answer
 * all the same.
 */
class JettyEe10BlockingWireTest extends EndpointWireTest {
    private static JettyEe10Host host;

    @BeforeAll
    static void start() throws Exception {
        host = new JettyEe10Host("/", "/API/Store.asmx", false);
    }

    @AfterAll
    static void stop() throws Exception {
        host.close();
    }

    @Override
    protected URI endpoint() {
        return host.endpoint();
    }

    @Override
    protected Storage storage() {
        return host.storage;
    }
}
