package org.storeservice.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.storeservice.codec.Protocol;
import org.storeservice.codec.Protocols;
import org.storeservice.codec.StoreCodec;

/** {@code store.protocols}: the protocols left out answer as ASMX answers them removed, end to end. */
@SpringBootTest(classes = TestApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"store.storage=memory:", "store.protocols=HttpSoap,HttpSoap12,HttpPostLocalhost,Documentation"})
class ProtocolsPropertyTest {
    private final HttpClient http = HttpClient.newHttpClient();
    @LocalServerPort
    private int port;
    @Autowired
    private StoreCodec codec;

    @Test
    void theListedProtocolsAreTheCodecs() {
        assertEquals(Protocols.of(Protocol.HTTP_SOAP, Protocol.HTTP_SOAP12, Protocol.HTTP_POST_LOCALHOST, Protocol.DOCUMENTATION),
                codec.protocols());
        assertEquals(Protocols.all(), new StoreProperties().toProtocols(), "the default is every protocol");
    }

    @Test
    void httpGetLeftOutIsUnrecognizedAndNotInTheWsdl() throws Exception {
        URI endpoint = URI.create("http://localhost:" + port + "/API/Store.asmx");
        HttpResponse<String> get = http.send(HttpRequest.newBuilder(URI.create(endpoint + "/WriteString?key=k&value=v")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(500, get.statusCode());
        assertTrue(get.body().contains("Request format is unrecognized for URL unexpectedly ending in &#39;/WriteString&#39;."),
                get.body());
        String wsdl = http.send(HttpRequest.newBuilder(URI.create(endpoint + "?wsdl")).build(),
                HttpResponse.BodyHandlers.ofString()).body();
        assertTrue(wsdl.contains("<wsdl:binding name=\"StoreSoap12\"") && !wsdl.contains("StoreHttpGet"), wsdl);
    }

    @Test
    void httpPostLocalhostTakesAFormPostFromThisMachine() throws Exception {
        // the servlet adapter passes the client's address: this client is on the loopback interface
        HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/API/Store.asmx/WriteString"))
                        .header("Content-Type", "application/x-www-form-urlencoded")
                        .POST(HttpRequest.BodyPublishers.ofString("key=k&value=v")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, post.statusCode(), post.body());
    }
}
