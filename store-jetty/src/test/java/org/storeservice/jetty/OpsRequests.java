package org.storeservice.jetty;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.Base64;

/** Requests the operations tests send: a SOAP 1.1 WriteString, an HTTP GET write, the WSDL. */
final class OpsRequests {
    private OpsRequests() {
    }

    static HttpRequest.Builder soapWrite(URI endpoint, String key, String value) {
        String envelope = "<?xml version=\"1.0\" encoding=\"utf-8\"?>"
                + "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>"
                + "<WriteString xmlns=\"http://tempuri.org/\"><key>" + key + "</key><value>" + value + "</value>"
                + "</WriteString></soap:Body></soap:Envelope>";
        return HttpRequest.newBuilder(endpoint)
                .header("Content-Type", "text/xml; charset=utf-8")
                .header("SOAPAction", "\"http://tempuri.org/WriteString\"")
                .POST(HttpRequest.BodyPublishers.ofString(envelope, UTF_8));
    }

    static HttpRequest.Builder getWrite(URI endpoint, String key, String value) {
        return HttpRequest.newBuilder(URI.create(endpoint + "/WriteString?key=" + key + "&value=" + value)).GET();
    }

    static HttpRequest.Builder wsdl(URI endpoint) {
        return HttpRequest.newBuilder(URI.create(endpoint + "?wsdl")).GET();
    }

    static String basic(String user, String password) {
        return "Basic " + Base64.getEncoder().encodeToString((user + ':' + password).getBytes(UTF_8));
    }
}
