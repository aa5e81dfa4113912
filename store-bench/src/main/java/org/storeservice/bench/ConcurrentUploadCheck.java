package org.storeservice.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;
import org.storeservice.api.storage.StoredEntry;

/**
 * The bounded-memory check of many concurrent large uploads: C client threads each send SOAP 1.1 WriteBytes of
 * N bytes (unique key per request, content derived from the key) for S seconds to a running server, then,
 * once the server is stopped by the caller, every acknowledged key is read back from the storage and compared.
 *
 * <pre>
 * java -cp store-bench/target/benchmarks.jar org.storeservice.bench.ConcurrentUploadCheck \
 *     send http://127.0.0.1:18100/API/Store.asmx 64 4194304 30 /tmp/acked.txt
 * java -cp store-bench/target/benchmarks.jar org.storeservice.bench.ConcurrentUploadCheck \
 *     verify sqlite:/tmp/up/store.db 4194304 /tmp/acked.txt
 * </pre>
 *
 * {@code send} prints the count of answers by status and body and exits 1 if any was not {@code 200 Success};
 * {@code verify} exits 1 if any acknowledged value is missing or differs. Load goes to the given URL only. A last
 * argument {@code text} to both sends and checks SOAP 1.1 WriteString of N chars instead (the text derived from the
 * key likewise).
 */
public final class ConcurrentUploadCheck {
    private ConcurrentUploadCheck() {
    }

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "send" -> System.exit(send(URI.create(args[1]), Integer.parseInt(args[2]),
                    Integer.parseInt(args[3]), Duration.ofSeconds(Long.parseLong(args[4])), args[5], isText(args, 6)));
            case "verify" -> System.exit(verify(args[1], Integer.parseInt(args[2]), args[3], isText(args, 4)));
            default -> throw new IllegalArgumentException("send or verify, not " + args[0]);
        }
    }

    private static boolean isText(String[] args, int at) {
        if (args.length <= at) {
            return false;
        }
        if (!args[at].equals("text")) {
            throw new IllegalArgumentException("text or nothing, not " + args[at]);
        }
        return true;
    }

    private static int send(URI endpoint, int clients, int contentBytes, Duration duration, String ackedFile,
            boolean text) throws Exception {
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(10)).build();
        long deadline = System.nanoTime() + duration.toNanos();
        Map<String, AtomicInteger> outcomes = new ConcurrentHashMap<>();
        ConcurrentLinkedQueue<String> acknowledged = new ConcurrentLinkedQueue<>();
        AtomicInteger next = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        for (int c = 0; c < clients; c++) {
            pool.execute(() -> {
                while (System.nanoTime() < deadline) {
                    String key = "upload/" + next.getAndIncrement();
                    String outcome;
                    try {
                        HttpResponse<String> answer = http.send(request(endpoint, key, contentBytes, text),
                                HttpResponse.BodyHandlers.ofString());
                        boolean success = answer.statusCode() == 200 && answer.body().contains(">Success<");
                        outcome = answer.statusCode() + (success ? " Success" : " " + abbreviate(answer.body()));
                        if (success) {
                            acknowledged.add(key);
                        }
                    } catch (IOException e) {
                        outcome = "exception " + e;
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    outcomes.computeIfAbsent(outcome, o -> new AtomicInteger()).incrementAndGet();
                }
            });
        }
        pool.shutdown();
        pool.awaitTermination(duration.toSeconds() + 600, TimeUnit.SECONDS);
        java.nio.file.Files.write(java.nio.file.Path.of(ackedFile), acknowledged);
        new TreeMap<>(outcomes).forEach((outcome, count) -> System.out.printf("%6d  %s%n", count.get(), outcome));
        System.out.printf("%d requests, %d acknowledged%n", next.get(), acknowledged.size());
        return outcomes.keySet().stream().allMatch(o -> o.equals("200 Success")) ? 0 : 1;
    }

    private static int verify(String storageUri, int contentBytes, String ackedFile, boolean text)
            throws IOException {
        int checked = 0;
        int wrong = 0;
        try (Storage storage = Storages.open(storageUri)) {
            for (String key : java.nio.file.Files.readAllLines(java.nio.file.Path.of(ackedFile))) {
                Optional<StoredEntry> entry = storage.get(key);
                checked++;
                boolean exact = entry.isPresent() && (text
                        ? text(key, contentBytes).equals(entry.get().text())
                        : Arrays.equals(entry.get().bytes(), content(key, contentBytes)));
                if (!exact) {
                    wrong++;
                    System.out.println("missing or different: " + key);
                }
            }
        }
        System.out.printf("%d acknowledged values read back, %d missing or different%n", checked, wrong);
        return wrong == 0 ? 0 : 1;
    }

    private static HttpRequest request(URI endpoint, String key, int contentBytes, boolean text) {
        String operation = text ? "WriteString" : "WriteBytes";
        String argument = text
                ? "<value>" + text(key, contentBytes) + "</value>"
                : "<content>" + Base64.getEncoder().encodeToString(content(key, contentBytes)) + "</content>";
        String body = "<?xml version=\"1.0\" encoding=\"utf-8\"?>"
                + "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>"
                + "<" + operation + " xmlns=\"http://tempuri.org/\"><key>" + key + "</key>" + argument
                + "</" + operation + "></soap:Body></soap:Envelope>";
        return HttpRequest.newBuilder(endpoint).timeout(Duration.ofMinutes(5))
                .header("Content-Type", "text/xml; charset=utf-8")
                .header("SOAPAction", "\"http://tempuri.org/" + operation + "\"")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.US_ASCII)).build();
    }

    /** The content sent under {@code key}: pseudo-random bytes seeded by the key. */
    static byte[] content(String key, int contentBytes) {
        byte[] content = new byte[contentBytes];
        new Random(key.hashCode()).nextBytes(content);
        return content;
    }

    /** The text sent under {@code key} in text mode: {@code chars} base64 chars of its content. */
    static String text(String key, int chars) {
        return Base64.getEncoder().encodeToString(content(key, chars)).substring(0, chars);
    }

    private static String abbreviate(String body) {
        String oneLine = body.replaceAll("\\s+", " ");
        return oneLine.length() > 120 ? oneLine.substring(0, 120) + "..." : oneLine;
    }
}
