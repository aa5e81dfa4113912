package org.storeservice.servlet;

import java.net.URI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.storeservice.api.storage.Storage;
import org.storeservice.testkit.wire.EndpointWireTest;

/**
 * The wire cases every host shares, on Jetty 12's EE10 servlet container: the servlet given a codec, mapped by
 * hand at {@code /legacy/Store.asmx/*} in a context at {@code /store}, so that neither the context nor the
 * mapping is the default one.
 */
class JettyEe10WireTest extends EndpointWireTest {
    private static JettyEe10Host host;

    @BeforeAll
    static void start() throws Exception {
        host = new JettyEe10Host("/store", "/legacy/Store.asmx", true);
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
