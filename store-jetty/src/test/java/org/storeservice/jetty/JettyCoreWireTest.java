package org.storeservice.jetty;

import java.io.IOException;
import java.net.URI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.Storage;
import org.storeservice.codec.CodecLimits;
import org.storeservice.testkit.wire.EndpointWireTest;

/** The wire cases every host shares, on the Jetty 12 core adapter (the ready server). */
class JettyCoreWireTest extends EndpointWireTest {
    private static MemoryStorage storage;
    private static StoreServer server;

    @BeforeAll
    static void start() throws IOException {
        storage = new MemoryStorage();
        server = StoreServer.builder().port(0).storage(storage)
                .codecLimits(CodecLimits.builder().maxRequestBytes(MAX_REQUEST_BYTES).build())
                .build().start();
    }

    @AfterAll
    static void stop() {
        server.stop();
        storage.close();
    }

    @Override
    protected URI endpoint() {
        return server.endpointUri();
    }

    @Override
    protected Storage storage() {
        return storage;
    }
}
