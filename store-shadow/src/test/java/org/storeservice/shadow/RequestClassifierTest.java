package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.storeservice.codec.Binding;

/** The key each request writes, read as the service reads it: whatever way the client wrote it. */
class RequestClassifierTest {
    private static final String ENDPOINT = "/API/Store.asmx";
    private final RequestClassifier classifier = new RequestClassifier("http://tempuri.org/", ENDPOINT, 1 << 20);

    private Classification soap(String action, String parameters) {
        String body = "<?xml version=\"1.0\"?><s:Envelope xmlns:s=\"http://schemas.xmlsoap.org/soap/envelope/\"><s:Body>"
                + "<" + action + " xmlns=\"http://tempuri.org/\">" + parameters + "</" + action + "></s:Body></s:Envelope>";
        byte[] bytes = body.getBytes(UTF_8);
        return classifier.classify("POST", ENDPOINT, null, List.of(Map.entry("Content-Type", "text/xml; charset=utf-8"),
                Map.entry("SOAPAction", "\"http://tempuri.org/" + action + "\"")), new ByteArrayInputStream(bytes),
                bytes.length, "192.0.2.1");
    }

    private Classification get(String pathInfo, String query) {
        return classifier.classify("GET", ENDPOINT + pathInfo, query, List.of(), new ByteArrayInputStream(new byte[0]), 0,
                "192.0.2.1");
    }

    @Test
    void soapWritesByTheirKeyAsXmlReadsIt() {
        assertEquals(new Classification(Binding.SOAP11, "WriteString", "a&b<c"),
                soap("WriteString", "<key>a&amp;b&lt;c</key><value>v</value>"));
        assertEquals(new Classification(Binding.SOAP11, "WriteBytes", "k"),
                soap("WriteBytes", "<content>aGk=</content><key>k</key>"), "the key after the content");
        assertEquals("\u00e9", soap("WriteString", "<key><![CDATA[\u00e9]]></key><value>v</value>").key());
    }

    @Test
    void httpWritesByTheirKeyAsAspNetDecodesIt() {
        assertEquals(new Classification(Binding.HTTP_GET, "WriteString", "\u00e9t\u00e9"),
                get("/WriteString", "key=%u00e9t%C3%A9&value=v"));
        assertEquals("a,b", get("/WriteString", "key=a&KEY=b&value=v").key(), "repeated, joined as ASP.NET joins them");
        byte[] form = "value=v&key=k+1".getBytes(UTF_8);
        Classification post = classifier.classify("POST", ENDPOINT + "/WriteString", null,
                List.of(Map.entry("Content-Type", "application/x-www-form-urlencoded")), new ByteArrayInputStream(form),
                form.length, "192.0.2.1");
        assertEquals(new Classification(Binding.HTTP_POST, "WriteString", "k 1"), post);
    }

    @Test
    void whatWritesNothingHasNoKey() {
        assertFalse(get("", "WSDL").writes());
        assertEquals("wsdl", get("", "WSDL").operation());
        assertFalse(get("/WriteString", "value=v").writes(), "no key: the service answers Error, nothing to order");
        assertFalse(soap("WriteString", "<key>unclosed</value>").writes(), "malformed");
        assertFalse(get("/Nope", "key=k").writes());
    }

    @Test
    void knowsTheEndpointFromOtherPaths() {
        assertTrue(classifier.atEndpoint("/api/store.asmx/WriteString"));
        assertFalse(classifier.atEndpoint("/elsewhere"));
    }
}
