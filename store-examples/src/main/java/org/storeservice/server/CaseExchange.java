package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Sends a {@link CompareCase} to one endpoint with the JDK's HTTP client (HTTP/1.1, no redirects followed, no
 * Content-Type unless the case sets one) and keeps what {@link ResponseDiffer} compares.
 */
final class CaseExchange {
    private final HttpClient client;
    private final Duration timeout;

    CaseExchange(Duration timeout) {
        this.timeout = timeout;
        this.client = HttpClient.newBuilder()
                .version(HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(timeout)
                .build();
    }

    /**
     * What the endpoint answered to {@code request}, or why it did not answer.
     *
     * @throws ConnectException if the endpoint cannot be reached at all: nothing to compare then
     */
    Answer send(URI endpoint, CompareCase request) throws ConnectException, InterruptedException {
        HttpRequest.Builder builder = HttpRequest.newBuilder(request.target(endpoint)).timeout(timeout)
                .method(request.method(), request.body() == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(request.body(), UTF_8));
        request.headers().forEach(header -> builder.header(header.getKey(), header.getValue()));
        try {
            HttpResponse<byte[]> response = client.send(builder.build(), HttpResponse.BodyHandlers.ofByteArray());
            return new Answer(response.statusCode(), response.headers().map(), response.body(), null);
        } catch (HttpTimeoutException e) {
            return Answer.failed("no answer within " + timeout.toMillis() / 1000.0 + " s");
        } catch (ConnectException e) {
            throw e;
        } catch (IOException e) {
            return Answer.failed(Failures.describe(e));
        }
    }

    /**
     * One endpoint's answer.
     *
     * @param status the status code; the reason phrase is not available from the JDK client
     * @param headers every response header, names as received (look them up case-insensitively)
     * @param body the body as received
     * @param failure why there was no answer (the other fields then empty), or {@code null}
     */
    record Answer(int status, Map<String, List<String>> headers, byte[] body, String failure) {
        static Answer failed(String why) {
            return new Answer(0, Map.of(), new byte[0], why);
        }

        /** The values of header {@code name}, case-insensitively, in order. */
        List<String> header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .flatMap(e -> e.getValue().stream()).toList();
        }
    }
}
