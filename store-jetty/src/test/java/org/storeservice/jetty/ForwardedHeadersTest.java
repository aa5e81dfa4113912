package org.storeservice.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.storeservice.api.storage.MemoryStorage;

/**
 * Behind a TLS-terminating proxy: forwarded headers from a trusted sender make the WSDL, disco and help pages
 * name the address clients call; from any other sender they change nothing.
 */
@Timeout(60)
class ForwardedHeadersTest {
    private static final MemoryStorage storage = new MemoryStorage();
    private static final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    /** Trusts the test's own address, 127.0.0.1, as a proxy. */
    private static StoreServer trusting;
    /** Trusts another network only. */
    private static StoreServer untrusting;

    @BeforeAll
    static void start() throws Exception {
        trusting = StoreServer.builder().port(0).storage(storage)
                .trustedProxies(AddressRanges.parse("127.0.0.1/32,::1"))
                // the client the proxy names is what the allow-list sees
                .allowFrom(AddressRanges.parse("203.0.113.0/24")).build().start();
        untrusting = StoreServer.builder().port(0).storage(storage)
                .trustedProxies(AddressRanges.parse("10.0.0.0/8")).build().start();
    }

    @AfterAll
    static void stop() {
        trusting.stop();
        untrusting.stop();
        storage.close();
    }

    private static String get(URI uri, String... headers) throws Exception {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(uri).headers(headers).GET().build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, response.statusCode(), response.body());
        return response.body();
    }

    @Test
    void xForwardedHeadersFromATrustedProxyNameThePublicAddress() throws Exception {
        String wsdl = get(URI.create(trusting.endpointUri() + "?wsdl"), "X-Forwarded-Proto", "https",
                "X-Forwarded-Host", "store.example.com", "X-Forwarded-Port", "443", "X-Forwarded-For", "203.0.113.9");
        assertTrue(wsdl.contains("location=\"https://store.example.com/API/Store.asmx\""), wsdl);
        assertTrue(!wsdl.contains("127.0.0.1"), wsdl);

        String disco = get(URI.create(trusting.endpointUri() + "?disco"), "X-Forwarded-Proto", "https",
                "X-Forwarded-Host", "store.example.com:8443", "X-Forwarded-For", "203.0.113.9");
        assertTrue(disco.contains("https://store.example.com:8443/API/Store.asmx?wsdl"), disco);
    }

    @Test
    void rfc7239ForwardedFromATrustedProxyNamesThePublicAddress() throws Exception {
        String help = get(URI.create(trusting.endpointUri() + "?op=WriteString"),
                "Forwarded", "for=203.0.113.7;proto=https;host=api.example.org");
        assertTrue(help.contains("Host: api.example.org"), help);
        String wsdl = get(URI.create(trusting.endpointUri() + "?wsdl"),
                "Forwarded", "for=203.0.113.7;proto=https;host=api.example.org");
        assertTrue(wsdl.contains("location=\"https://api.example.org/API/Store.asmx\""), wsdl);
    }

    @Test
    void theAllowListSeesTheClientATrustedProxyNames() throws Exception {
        HttpResponse<String> outside = http.send(OpsRequests.wsdl(trusting.endpointUri())
                .header("X-Forwarded-For", "198.51.100.1").build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(403, outside.statusCode());
        HttpResponse<String> direct = http.send(OpsRequests.wsdl(trusting.endpointUri()).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(403, direct.statusCode(), "127.0.0.1 itself is not in the allow-list");
    }

    @Test
    void headersFromAnUntrustedSenderChangeNothing() throws Exception {
        URI endpoint = untrusting.endpointUri();
        String wsdl = get(URI.create(endpoint + "?wsdl"), "X-Forwarded-Proto", "https",
                "X-Forwarded-Host", "evil.example.com", "Forwarded", "proto=https;host=evil.example.com");
        assertTrue(wsdl.contains("location=\"http://127.0.0.1:" + untrusting.port() + "/API/Store.asmx\""), wsdl);
        assertTrue(!wsdl.contains("evil"), wsdl);
    }
}
