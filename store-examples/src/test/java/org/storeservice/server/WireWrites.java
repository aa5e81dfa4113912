package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Base64;

/**
 * The two operations as a client sends them to a running server: WriteString through HTTP POST, WriteBytes
 * through SOAP 1.1. Each returns whether the answer was {@code Success}, and throws {@link IOException} when
 * no answer came (the server is gone), bounded by a 30 s request time-out.
 */
final class WireWrites {
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);

    private WireWrites() {
    }

    /** A client for these writes: HTTP/1.1, as the legacy clients speak. */
    static HttpClient client() {
        return HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
    }

    /** WriteString through the HTTP POST binding; true if answered Success. */
    static boolean writeString(HttpClient http, URI endpoint, String key, String value)
            throws IOException, InterruptedException {
        String form = "key=" + URLEncoder.encode(key, UTF_8) + "&value=" + URLEncoder.encode(value, UTF_8);
        HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint + "/WriteString"))
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "application/x-www-form-urlencoded; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofString(form, UTF_8)).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString(UTF_8));
        return response.statusCode() == 200 && response.body().contains(">Success<");
    }

    /** WriteBytes through SOAP 1.1; true if answered Success. */
    static boolean writeBytes(HttpClient http, URI endpoint, String key, byte[] content)
            throws IOException, InterruptedException {
        String envelope = "<?xml version=\"1.0\" encoding=\"utf-8\"?>"
                + "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>"
                + "<WriteBytes xmlns=\"http://tempuri.org/\"><key>" + key + "</key><content>"
                + Base64.getEncoder().encodeToString(content) + "</content></WriteBytes></soap:Body></soap:Envelope>";
        HttpRequest request = HttpRequest.newBuilder(endpoint)
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "text/xml; charset=utf-8")
                .header("SOAPAction", "\"http://tempuri.org/WriteBytes\"")
                .POST(HttpRequest.BodyPublishers.ofString(envelope, UTF_8)).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString(UTF_8));
        return response.statusCode() == 200 && response.body().contains("<WriteBytesResult>Success</WriteBytesResult>");
    }
}
