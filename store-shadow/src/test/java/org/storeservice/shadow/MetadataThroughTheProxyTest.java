package org.storeservice.shadow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.StoreLimits;

/**
 * The WSDL, disco and help pages fetched through the proxy, Store servers as the primary and the shadow: they name the
 * proxy's address, never a service's own, and the two services' pages match once each names the client's address.
 */
class MetadataThroughTheProxyTest {
    @TempDir
    Path directory;

    @Test
    void metadataPagesNameTheProxyAndMatch() throws Exception {
        try (Services services = new Services(directory, StoreLimits.defaults(), proxy -> { })) {
            URI endpoint = services.endpoint();
            String proxy = "http://" + endpoint.getHost() + ":" + endpoint.getPort() + endpoint.getPath();
            String[] queries = {"?WSDL", "?wsdl", "?disco", "", "?op=WriteString"};
            for (String query : queries) {
                Wire.Seen seen = Wire.send(HttpRequest.newBuilder(URI.create(endpoint + query))
                        .timeout(Duration.ofSeconds(60)).GET().build());
                assertEquals(200, seen.status(), query);
                assertFalse(seen.text().contains(":" + services.primary.port()), query + " names the primary's port");
                assertFalse(seen.text().contains(":" + services.shadow.port()), query + " names the shadow's port");
                if (query.startsWith("?w") || query.startsWith("?W") || query.equals("?disco")) {
                    assertTrue(seen.text().contains(proxy), query + " names the proxy: " + seen.text());
                }
            }
            services.awaitOutcomes(queries.length);
            assertEquals(queries.length, services.count(ShadowResult.MATCHED),
                    Files.exists(services.differences) ? Files.readString(services.differences) : "no differences file");
        }
    }
}
