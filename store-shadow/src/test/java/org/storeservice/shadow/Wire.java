package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** A real client for the tests: the JDK's HTTP client, sending the service's requests on each binding. */
final class Wire {
    static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NEVER).connectTimeout(Duration.ofSeconds(10)).build();

    /** The service's bindings, as the tests write with them. */
    enum Binding { SOAP11, SOAP12, GET, POST }

    private Wire() {
    }

    /** What a client saw: the status, the headers (Date aside, names lower-cased) and the body. */
    record Seen(int status, Map<String, List<String>> headers, byte[] body) {
        String text() {
            return new String(body, UTF_8);
        }

        boolean success() {
            return status == 200 && text().contains("Success</");
        }
    }

    static Seen send(HttpRequest request) throws IOException, InterruptedException {
        HttpResponse<byte[]> response = CLIENT.send(request, HttpResponse.BodyHandlers.ofByteArray());
        Map<String, List<String>> headers = response.headers().map().entrySet().stream()
                .filter(e -> !e.getKey().equalsIgnoreCase("date") && !e.getKey().equals(":status"))
                .collect(Collectors.toMap(e -> e.getKey().toLowerCase(java.util.Locale.ROOT), Map.Entry::getValue,
                        (a, b) -> a, TreeMap::new));
        return new Seen(response.statusCode(), headers, response.body());
    }

    /** A WriteString of {@code value} under {@code key} on {@code binding}. */
    static HttpRequest writeString(URI endpoint, Binding binding, String key, String value) {
        return switch (binding) {
            case SOAP11 -> soap11(endpoint, "WriteString", "<key>" + xml(key) + "</key><value>" + xml(value) + "</value>");
            case SOAP12 -> soap12(endpoint, "WriteString", "<key>" + xml(key) + "</key><value>" + xml(value) + "</value>");
            case GET -> HttpRequest.newBuilder(URI.create(endpoint + "/WriteString?key=" + form(key) + "&value=" + form(value)))
                    .timeout(Duration.ofSeconds(60)).GET().build();
            case POST -> HttpRequest.newBuilder(URI.create(endpoint + "/WriteString")).timeout(Duration.ofSeconds(60))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString("key=" + form(key) + "&value=" + form(value))).build();
        };
    }

    /** A WriteBytes of {@code content} under {@code key} on {@code binding}. */
    static HttpRequest writeBytes(URI endpoint, Binding binding, String key, byte[] content) {
        String base64 = Base64.getEncoder().encodeToString(content);
        StringBuilder fields = new StringBuilder("key=").append(form(key));
        for (byte b : content) {
            fields.append("&content=").append(b & 0xFF);
        }
        return switch (binding) {
            case SOAP11 -> soap11(endpoint, "WriteBytes", "<key>" + xml(key) + "</key><content>" + base64 + "</content>");
            case SOAP12 -> soap12(endpoint, "WriteBytes", "<key>" + xml(key) + "</key><content>" + base64 + "</content>");
            case GET -> HttpRequest.newBuilder(URI.create(endpoint + "/WriteBytes?" + fields)).timeout(Duration.ofSeconds(60))
                    .GET().build();
            case POST -> HttpRequest.newBuilder(URI.create(endpoint + "/WriteBytes")).timeout(Duration.ofSeconds(60))
                    .header("Content-Type", "application/x-www-form-urlencoded")
                    .POST(HttpRequest.BodyPublishers.ofString(fields.toString())).build();
        };
    }

    static HttpRequest soap11(URI endpoint, String operation, String parameters) {
        String body = "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">"
                + "<soap:Body><" + operation + " xmlns=\"http://tempuri.org/\">" + parameters + "</" + operation
                + "></soap:Body></soap:Envelope>";
        return HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "text/xml; charset=utf-8")
                .header("SOAPAction", "\"http://tempuri.org/" + operation + "\"")
                .POST(HttpRequest.BodyPublishers.ofString(body, UTF_8)).build();
    }

    static HttpRequest soap12(URI endpoint, String operation, String parameters) {
        String body = "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap12:Envelope xmlns:soap12=\"http://www.w3.org/2003/05/soap-envelope\">"
                + "<soap12:Body><" + operation + " xmlns=\"http://tempuri.org/\">" + parameters + "</" + operation
                + "></soap12:Body></soap12:Envelope>";
        return HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(60))
                .header("Content-Type", "application/soap+xml; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofString(body, UTF_8)).build();
    }

    static String xml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    static String form(String text) {
        return URLEncoder.encode(text, UTF_8);
    }
}
