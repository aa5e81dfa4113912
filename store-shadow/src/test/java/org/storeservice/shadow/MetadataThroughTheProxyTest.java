package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.UTF_8;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpRequest;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.StoreLimits;
import org.storeservice.jetty.AddressRanges;
import org.storeservice.jetty.StoreServer;

/**
 * The WSDL, disco and help pages fetched through the proxy, Store servers as the primary and the shadow, or a primary
 * naming its own listener as Mono and IIS do: they name the
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

    /**
     * A client's {@code Accept-Encoding} (zeep sends gzip) would have the primary compress its WSDL (IIS's dynamic
     * compression), which the proxy cannot rewrite: a metadata request goes to the primary without it, while a write
     * keeps it.
     */
    @Test
    void aMetadataRequestReachesThePrimaryWithoutAcceptEncoding() throws Exception {
        Map<String, String> seen = new ConcurrentHashMap<>();
        try (LegacyPrimary asmx = new LegacyPrimary((request, port) -> {
                    String query = request.getHttpURI().getQuery();
                    seen.put(query == null ? "" : query, String.valueOf(request.getHeaders().get("Accept-Encoding")));
                    return new LegacyPrimary.Reply(200, "text/xml; charset=utf-8", wsdl("127.0.0.1", port));
                });
                StoreServer shadow = StoreServer.builder().port(0).storage(new WatchedStorage()).build().start();
                ShadowProxy proxy = ShadowProxy.builder().port(0).primary(asmx.endpoint()).shadow(shadow.endpointUri())
                        .build().start()) {
            for (String query : new String[] {"wsdl", "disco", "op=WriteString"}) {
                assertEquals(200, Wire.send(HttpRequest.newBuilder(URI.create(proxy.endpointUri() + "?" + query))
                        .header("Accept-Encoding", "gzip, deflate").timeout(Duration.ofSeconds(60)).GET().build()).status());
            }
            Wire.send(HttpRequest.newBuilder(URI.create(proxy.endpointUri() + "/WriteString?key=k&value=v"))
                    .header("Accept-Encoding", "gzip, deflate").timeout(Duration.ofSeconds(60)).GET().build());
            assertEquals(Map.of("wsdl", "null", "disco", "null", "op=WriteString", "null", "key=k&value=v", "gzip, deflate"),
                    seen);
        }
    }

    /**
     * A primary that names its own listener's port in its WSDL, with the host of the {@code Host} header or its own
     * address, as Mono's ASMX and IIS do: through the proxy, the WSDL names the proxy instead, and nothing else changes.
     */
    @Test
    void aPrimaryNamingItsOwnListenerIsRewrittenToNameTheProxy() throws Exception {
        try (LegacyPrimary asmx = new LegacyPrimary((request, port) -> {
                    String host = AddressRewriter.hostName(request.getHeaders().get("Host"));
                    byte[] own = wsdl(host, port);
                    byte[] direct = wsdl("127.0.0.1", port);
                    byte[] both = new byte[own.length + direct.length];
                    System.arraycopy(own, 0, both, 0, own.length);
                    System.arraycopy(direct, 0, both, own.length, direct.length);
                    return new LegacyPrimary.Reply(200, "text/xml; charset=utf-8", both);
                });
                StoreServer shadow = StoreServer.builder().port(0).storage(new WatchedStorage()).build().start();
                ShadowProxy proxy = ShadowProxy.builder().port(0).primary(asmx.endpoint()).shadow(shadow.endpointUri())
                        .build().start()) {
            String direct = Wire.send(HttpRequest.newBuilder(URI.create(asmx.endpoint() + "?WSDL"))
                    .timeout(Duration.ofSeconds(60)).GET().build()).text();
            assertTrue(direct.contains("http://127.0.0.1:" + asmx.port() + "/API/Store.asmx"), direct);
            URI endpoint = URI.create("http://localhost:" + proxy.endpointUri().getPort() + "/API/Store.asmx");
            Wire.Seen seen = Wire.send(HttpRequest.newBuilder(URI.create(endpoint + "?WSDL"))
                    .timeout(Duration.ofSeconds(60)).GET().build());
            assertEquals(200, seen.status());
            assertFalse(seen.text().contains(":" + asmx.port()), "names the primary's port: " + seen.text());
            assertEquals(direct.replace("http://127.0.0.1:" + asmx.port(), endpoint.getScheme() + "://"
                    + endpoint.getAuthority()), seen.text(), "every other byte as the primary sent it");
        }
    }

    /**
     * Behind a load balancer that terminates TLS: from a trusted sender, the metadata answer names the scheme, host and
     * port its {@code X-Forwarded-Proto}, {@code -Host}, {@code -Port} or {@code Forwarded} header names; from anyone
     * else, those headers are not believed and the answer names the address the proxy was called at.
     */
    @Test
    void behindATrustedBalancerTheForwardedSchemeHostAndPortAreNamed() throws Exception {
        try (LegacyPrimary asmx = new LegacyPrimary((request, port) -> new LegacyPrimary.Reply(200,
                        "text/xml; charset=utf-8", wsdl(AddressRewriter.hostName(request.getHeaders().get("Host")), port)));
                StoreServer shadow = StoreServer.builder().port(0).storage(new WatchedStorage()).build().start();
                ShadowProxy trusting = ShadowProxy.builder().port(0).primary(asmx.endpoint()).shadow(shadow.endpointUri())
                        .trustedProxies(AddressRanges.parse("127.0.0.1/32")).build().start();
                ShadowProxy untrusting = ShadowProxy.builder().port(0).primary(asmx.endpoint())
                        .shadow(shadow.endpointUri()).build().start()) {
            String[][] cases = {
                {"X-Forwarded-Proto", "https", "https://127.0.0.1:" + trusting.endpointUri().getPort()},
                {"X-Forwarded-Proto|X-Forwarded-Host", "https|store.example", "https://store.example"},
                {"X-Forwarded-Proto|X-Forwarded-Host|X-Forwarded-Port", "https|store.example|8443",
                    "https://store.example:8443"},
                {"Forwarded", "for=192.0.2.7;proto=https;host=\"store.example:9443\"", "https://store.example:9443"},
            };
            for (String[] c : cases) {
                assertTrue(wsdlThrough(trusting, c[0], c[1]).contains("location=\"" + c[2] + "/API/Store.asmx\""),
                        c[0] + " from a trusted sender: " + wsdlThrough(trusting, c[0], c[1]));
                String untrusted = wsdlThrough(untrusting, c[0], c[1]);
                assertTrue(untrusted.contains("location=\"http://127.0.0.1:" + untrusting.endpointUri().getPort()
                        + "/API/Store.asmx\""), c[0] + " from anyone: " + untrusted);
            }
            // Called as localhost, the primary names localhost with its own port (Mono's way): the Host it was sent.
            HttpRequest byName = HttpRequest.newBuilder(URI.create("http://localhost:" + trusting.endpointUri().getPort()
                    + "/API/Store.asmx?WSDL")).header("X-Forwarded-Proto", "https")
                    .header("X-Forwarded-Host", "store.example").timeout(Duration.ofSeconds(60)).GET().build();
            String named = Wire.send(byName).text();
            assertTrue(named.contains("location=\"https://store.example/API/Store.asmx\""), named);
        }
    }

    private static String wsdlThrough(ShadowProxy proxy, String names, String values) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(proxy.endpointUri() + "?WSDL"))
                .timeout(Duration.ofSeconds(60)).GET();
        String[] name = names.split("\\|");
        String[] value = values.split("\\|");
        for (int i = 0; i < name.length; i++) {
            request.header(name[i], value[i]);
        }
        return Wire.send(request.build()).text();
    }

    /**
     * With no memory left for answers held for clients, a metadata answer is not held to be rewritten: it goes out as
     * the primary wrote it, whole (the documented fallback; a warning in the log says so), and nothing is held.
     */
    @Test
    void withTheAnswerMemorySpentAMetadataAnswerGoesOutAsWritten() throws Exception {
        try (LegacyPrimary asmx = new LegacyPrimary((request, port) -> new LegacyPrimary.Reply(200,
                        "text/xml; charset=utf-8", wsdl("127.0.0.1", port)));
                StoreServer shadow = StoreServer.builder().port(0).storage(new WatchedStorage()).build().start();
                ShadowProxy proxy = ShadowProxy.builder().port(0).primary(asmx.endpoint()).shadow(shadow.endpointUri())
                        .clientAnswerBytes(1).build().start()) {
            Wire.Seen seen = Wire.send(HttpRequest.newBuilder(URI.create(proxy.endpointUri() + "?WSDL"))
                    .timeout(Duration.ofSeconds(60)).GET().build());
            assertEquals(new String(wsdl("127.0.0.1", asmx.port()), UTF_8), seen.text());
            assertEquals(0, proxy.clientAnswers().reserved(), "what was reserved is given back");
        }
    }

    /** A WSDL naming {@code host} with {@code port}, as Mono's and IIS's name their own listener's port. */
    static byte[] wsdl(String host, int port) {
        return ("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<wsdl:definitions xmlns:wsdl=\"http://schemas.xmlsoap.org/wsdl/\""
                + " xmlns:soap=\"http://schemas.xmlsoap.org/wsdl/soap/\"><wsdl:service name=\"Store\"><wsdl:port"
                + " name=\"StoreSoap\"><soap:address location=\"http://" + host + ":" + port + "/API/Store.asmx\" />"
                + "</wsdl:port></wsdl:service></wsdl:definitions>").getBytes(UTF_8);
    }
}
