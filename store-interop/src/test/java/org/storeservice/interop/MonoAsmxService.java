package org.storeservice.interop;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * The ASMX fixture ({@code src/test/asmx}: {@code Store.asmx} and what reads its entries back) served by Mono's ASP.NET
 * runtime, on a free loopback port, through the fixture's own small host ({@code AsmxHost.cs}, compiled here with
 * {@code mcs}): Debian's xsp4 does not start on the Mono it ships. Stopped on {@link #close()}.
 */
final class MonoAsmxService implements AutoCloseable {
    static final Path MONO = Path.of("/usr/bin/mono");
    static final Path MCS = Path.of("/usr/bin/mcs");
    static final Path SYSTEM_WEB_SERVICES = Path.of("/usr/lib/mono/4.5/System.Web.Services.dll");
    static final String INSTALL = "apt-get install mono-runtime mono-mcs libmono-system-web4.0-cil";
    private static final Path FIXTURE = Path.of("src", "test", "asmx");

    private final Process process;
    private final Path log;
    private final URI endpoint;

    /** Copies the fixture to {@code root}, compiles its host there, starts it and waits until Store.asmx answers. */
    MonoAsmxService(Path root) throws IOException, InterruptedException {
        copy(FIXTURE, root);
        Path bin = Files.createDirectories(root.resolve("bin"));
        ClientRun.succeeding(List.of(MCS.toString(), "-r:System.Web.dll", "-out:" + bin.resolve("AsmxHost.exe"),
                root.resolve("AsmxHost.cs").toString()));
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        endpoint = URI.create("http://127.0.0.1:" + port + "/API/Store.asmx");
        log = root.resolve("asmx-host.log");
        process = new ProcessBuilder(MONO.toString(), bin.resolve("AsmxHost.exe").toString(), "" + port, root.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile()).redirectInput(new File("/dev/null")).start();
        try {
            awaitAnswer();
        } catch (IOException | InterruptedException | RuntimeException | AssertionError e) {
            close(); // never started as far as the caller knows: it must not outlive the test
            throw e;
        }
    }

    /** The first request compiles the page: waits (up to two minutes) until the WSDL is served. */
    private void awaitAnswer() throws IOException, InterruptedException {
        HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                fail("the ASMX host exited with " + process.exitValue() + ":\n" + Files.readString(log));
            }
            try {
                HttpResponse<String> wsdl = client.send(HttpRequest.newBuilder(URI.create(endpoint + "?WSDL"))
                        .timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
                if (wsdl.statusCode() == 200) {
                    return;
                }
                fail("the ASMX host answered its WSDL with " + wsdl.statusCode() + ":\n" + wsdl.body() + "\n"
                        + Files.readString(log)); // an answer, not a start still under way: waiting changes nothing
            } catch (IOException e) {
                process.waitFor(200, TimeUnit.MILLISECONDS); // not listening yet; polled, bounded by the deadline
            }
        }
        fail("the ASMX host did not serve its WSDL within two minutes:\n" + Files.readString(log));
    }

    URI endpoint() {
        return endpoint;
    }

    /** What it stored: key to {@code text:VALUE} or {@code bytes:HEX}, as the Store side's storage is described. */
    Map<String, String> entries() throws IOException, InterruptedException {
        HttpResponse<String> dump = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                endpoint.resolve("/Entries.ashx")).timeout(Duration.ofSeconds(60)).build(), HttpResponse.BodyHandlers.ofString());
        Map<String, String> entries = new TreeMap<>();
        for (String line : dump.body().split("\n")) {
            if (line.isEmpty()) {
                continue;
            }
            String[] fields = line.split("\t", -1);
            String key = new String(Base64.getDecoder().decode(fields[0]), UTF_8);
            byte[] value = Base64.getDecoder().decode(fields[2]);
            entries.put(key, fields[1].equals("text") ? "text:" + new String(value, UTF_8) : "bytes:" + HexFormat.of().formatHex(value));
        }
        return entries;
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target, StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
