package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.net.URI;
import org.junit.jupiter.api.Test;

class AddressRewriterTest {
    private static String rewrite(String primary, String body, String scheme, String clientHost) {
        return new String(new AddressRewriter(URI.create(primary)).rewrite(body.getBytes(UTF_8), scheme, clientHost), UTF_8);
    }

    @Test
    void theServicesOwnHostAndPortBecomeTheAddressTheClientCalled() {
        assertEquals("<soap:address location=\"http://proxy:8080/API/Store.asmx\" />",
                rewrite("http://old-iis:8081/API/Store.asmx",
                        "<soap:address location=\"http://old-iis:8081/API/Store.asmx\" />", "http", "proxy:8080"));
    }

    @Test
    void theClientsHostWithTheServicesPortAsMonoWritesItBecomesTheClientsAddress() {
        assertEquals("http://proxy.example:8080/API/Store.asmx and http://proxy.example:8080/API/Store.asmx?WSDL",
                rewrite("http://10.0.0.5:8081/API/Store.asmx",
                        "http://proxy.example:8081/API/Store.asmx and http://Proxy.Example:8081/API/Store.asmx?WSDL",
                        "http", "proxy.example:8080"));
    }

    @Test
    void schemeAndDefaultPortsAreTheServicesOwnToo() {
        assertEquals("see http://proxy:8080/API/Store.asmx",
                rewrite("https://old-iis/API/Store.asmx", "see https://old-iis/API/Store.asmx", "http", "proxy:8080"));
        assertEquals("see http://proxy:8080/API/Store.asmx",
                rewrite("https://old-iis/API/Store.asmx", "see https://old-iis:443/API/Store.asmx", "http", "proxy:8080"));
        assertEquals("[::1] too: http://[::1]:8080/x",
                rewrite("http://[::1]:9000/API/Store.asmx", "[::1] too: http://[::1]:9000/x", "http", "[::1]:8080"));
    }

    @Test
    void otherHostsPortsAndLongerNamesAreLeftAlone() {
        String body = "http://old-iis:9999/a http://www.old-iis:8081/b http://old-iis.example:8081/c http://old-iis-2:8081/d"
                + " http://schemas.xmlsoap.org/wsdl/ http://tempuri.org/ old-iis:8081 without a scheme";
        byte[] bytes = body.getBytes(UTF_8);
        assertSame(bytes, new AddressRewriter(URI.create("http://old-iis:8081/API/Store.asmx")).rewrite(bytes, "http", "proxy:8080"),
                "nothing names the service: the same bytes back");
    }

    @Test
    void bytesThatAreNotTextAreKept() {
        byte[] body = {(byte) 0xFF, 'h', 't', 't', 'p', ':', '/', '/', 'a', ':', '1', '/', 0, (byte) 0x80};
        byte[] rewritten = new AddressRewriter(URI.create("http://a:1/x")).rewrite(body, "http", "b:2");
        assertEquals("[-1, 104, 116, 116, 112, 58, 47, 47, 98, 58, 50, 47, 0, -128]", java.util.Arrays.toString(rewritten));
    }
}
