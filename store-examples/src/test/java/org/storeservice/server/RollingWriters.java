package org.storeservice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Writers through a balancer, as legacy clients: each one write after another on a kept-alive connection, no retries;
 * WriteString over HTTP GET (answered where it was read) and a 100 KiB WriteBytes over SOAP 1.1 (a body over 128 KiB,
 * read and answered on the server's executor) in turn. Counts the writes answered {@code Success} and keeps a line for
 * every other answer or error.
 */
final class RollingWriters implements AutoCloseable {
    private final ExecutorService pool;
    private final AtomicBoolean writing = new AtomicBoolean(true);
    private final AtomicLong successes = new AtomicLong();
    private final List<String> failures = Collections.synchronizedList(new ArrayList<>());
    private final List<Future<?>> loops = new ArrayList<>();

    private RollingWriters(int count) {
        pool = Executors.newFixedThreadPool(count);
    }

    /** Starts {@code count} writers on {@code front}, writer {@code w} writing keys {@code w<w>-<i>}. */
    static RollingWriters start(URI front, int count) {
        RollingWriters writers = new RollingWriters(count);
        for (int w = 0; w < count; w++) {
            int writer = w;
            writers.loops.add(writers.pool.submit(() -> writers.write(front, writer)));
        }
        return writers;
    }

    /** How many writes have been answered {@code Success} so far. */
    long successes() {
        return successes.get();
    }

    /**
     * Stops the writers, waits at most {@code bound} each for them to finish the write they are in, prints the counts
     * after {@code summary}, and asserts that every write was answered {@code Success} (the first ten others shown) and
     * that some were; {@code during} names the scenario in the message.
     */
    void stopAndAssertAllSucceeded(Duration bound, String summary, String during) throws Exception {
        writing.set(false);
        for (Future<?> loop : loops) {
            loop.get(bound.toSeconds(), TimeUnit.SECONDS);
        }
        List<String> failed;
        synchronized (failures) {
            failed = List.copyOf(failures);
        }
        System.out.println(summary + ", " + successes.get() + " writes Success, " + failed.size() + " failed");
        assertEquals(List.of(), failed.subList(0, Math.min(10, failed.size())),
                failed.size() + " writes failed during " + during);
        assertTrue(successes.get() > 0);
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }

    private void write(URI front, int writer) {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        String content = Base64.getEncoder().encodeToString(new byte[100 * 1024]);
        for (long i = 0; writing.get(); i++) {
            String key = "w" + writer + "-" + i;
            HttpRequest request = i % 2 == 0
                    ? HttpRequest.newBuilder(URI.create(front + "/WriteString?key=" + key + "&value=v" + i))
                            .timeout(Duration.ofSeconds(30)).build()
                    : HttpRequest.newBuilder(front).timeout(Duration.ofSeconds(30))
                            .header("Content-Type", "text/xml; charset=utf-8")
                            .header("SOAPAction", "\"http://tempuri.org/WriteBytes\"")
                            .POST(HttpRequest.BodyPublishers.ofString("<soap:Envelope xmlns:soap=\"http://schemas."
                                    + "xmlsoap.org/soap/envelope/\"><soap:Body><WriteBytes xmlns=\"http://tempuri.org/\">"
                                    + "<key>" + key + "</key><content>" + content + "</content></WriteBytes></soap:Body>"
                                    + "</soap:Envelope>")).build();
            try {
                HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().contains("Success<")) {
                    successes.incrementAndGet();
                } else {
                    failures.add(key + ": " + response.statusCode() + " " + response.body().strip());
                }
            } catch (IOException e) {
                failures.add(key + ": " + e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
