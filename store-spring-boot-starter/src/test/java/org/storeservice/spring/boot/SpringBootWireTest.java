package org.storeservice.spring.boot;

import java.net.URI;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.storeservice.api.storage.Storage;
import org.storeservice.testkit.wire.EndpointWireTest;

/** The wire cases every host shares, on a Spring Boot application configured by properties alone. */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"store.storage=memory:", "store.limits.max-request-bytes=64KB"})
class SpringBootWireTest extends EndpointWireTest {
    @LocalServerPort
    private int port;
    @Autowired
    private Storage storage;

    @Override
    protected URI endpoint() {
        return URI.create("http://localhost:" + port + "/API/Store.asmx");
    }

    @Override
    protected Storage storage() {
        return storage;
    }
}
