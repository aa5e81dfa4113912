package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.StandardProtocolFamily;
import java.net.URI;
import java.net.UnixDomainSocketAddress;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;

/**
 * Servers of the jar (started, stopped and started again here) with HAProxy in front of them, configured as
 * deploy/ha/render.sh renders it for an inventory of them behind one balancer (readiness checked every second, two
 * failures to take a server out, retries and redispatch), with a stats socket added so that a test asks HAProxy whether
 * it has marked a server up rather than guessing a time.
 */
final class HaproxyFront implements AutoCloseable {
    private static final Path HAPROXY = Path.of("/usr/sbin/haproxy");

    /** A server behind the balancer: its name in the inventory, its ports, and the file its standard error goes to. */
    record Backend(String name, int port, int managementPort, Path log) {
        /** A backend on two free ports, logging to {@code name.log} in {@code directory}. */
        static Backend in(Path directory, String name) throws IOException {
            return new Backend(name, freePort(), freePort(), directory.resolve(name + ".log"));
        }
    }

    /** Starts a server of the jar as {@code backend}; returns once it listens. */
    @FunctionalInterface
    interface Starter {
        Process start(Backend backend) throws Exception;
    }

    private final Starter starter;
    private final URI endpoint;
    private final Path stats;
    private final Duration bound;
    private final Map<Backend, Process> running = new ConcurrentHashMap<>();
    private Process balancer;

    private HaproxyFront(Starter starter, URI endpoint, Path stats, Duration bound) {
        this.starter = starter;
        this.endpoint = endpoint;
        this.stats = stats;
        this.bound = bound;
    }

    /** Aborts {@code test} where HAProxy is not installed, or fails it when {@code CI=true}. */
    static void requireHaproxy(String test, String why) {
        if (!Files.isExecutable(HAPROXY)) {
            if ("true".equals(System.getenv("CI"))) {
                fail(why + "; CI=true, so this fails rather than skips");
            }
            System.out.println(test + " skipped: " + why);
            Assumptions.abort(why);
        }
    }

    /**
     * Starts each of {@code backends} with {@code starter}, then HAProxy in front of them on the configuration rendered
     * for them in {@code directory} ({@code haproxy.log} there), and returns once HAProxy sends to each; {@code bound}
     * guards each wait.
     */
    static HaproxyFront start(Path directory, List<Backend> backends, Starter starter, Duration bound)
            throws Exception {
        int frontPort = freePort();
        Path stats = directory.resolve("haproxy.sock");
        Path config = directory.resolve("haproxy.cfg");
        Files.writeString(config, rendered(directory, frontPort, backends).replaceFirst("(?m)^global\n",
                "global\n    stats socket " + stats + " level admin\n"));
        HaproxyFront front = new HaproxyFront(starter, URI.create("http://127.0.0.1:" + frontPort + "/API/Store.asmx"),
                stats, bound);
        try {
            for (Backend backend : backends) {
                front.running.put(backend, starter.start(backend));
            }
            front.balancer = new ProcessBuilder(HAPROXY.toString(), "-db", "-f", config.toString())
                    .redirectErrorStream(true).redirectOutput(directory.resolve("haproxy.log").toFile()).start();
            for (Backend backend : backends) {
                front.awaitUp(backend);
            }
            return front;
        } catch (Exception | Error e) {
            front.close();
            throw e;
        }
    }

    /** The Store endpoint through the balancer. */
    URI endpoint() {
        return endpoint;
    }

    /**
     * Sends {@code backend}'s server SIGTERM, as systemd and an operator send it, and waits for it to exit; returns its
     * process, for its exit status.
     */
    Process stop(Backend backend) throws InterruptedException {
        Process stopping = running.get(backend);
        stopping.destroy();
        assertTrue(stopping.waitFor(bound.toSeconds(), TimeUnit.SECONDS), backend.name() + " did not stop");
        return stopping;
    }

    /** Starts {@code backend}'s server again and returns once HAProxy sends to it. */
    void startAgain(Backend backend) throws Exception {
        running.put(backend, starter.start(backend));
        awaitUp(backend);
    }

    /**
     * Waits until the balancer sends to {@code backend} again: its readiness is 200, and HAProxy's stats socket says the
     * server is {@code UP} with its last check passed ({@code L7OK}). A stopped server fails its checks (503, then
     * refused) before it is started again, so a passed last check is one against the new process.
     */
    private void awaitUp(Backend backend) throws Exception {
        HttpClient http = HttpClient.newHttpClient();
        URI ready = URI.create("http://127.0.0.1:" + backend.managementPort() + "/health/ready");
        long deadline = System.nanoTime() + bound.toNanos();
        while (true) {
            try {
                if (http.send(HttpRequest.newBuilder(ready).build(), HttpResponse.BodyHandlers.discarding())
                        .statusCode() == 200) {
                    break;
                }
            } catch (IOException e) {
                // not listening yet
            }
            assertTrue(System.nanoTime() < deadline, "the server did not turn ready");
            Thread.sleep(100);
        }
        String state = "";
        while (true) {
            try {
                state = serverState(backend.name());
                if (state.equals("UP L7OK")) {
                    return;
                }
            } catch (IOException e) {
                state = "stats socket: " + e; // HAProxy not listening on it yet
            }
            assertTrue(System.nanoTime() < deadline, "HAProxy did not mark " + backend.name() + " up: " + state);
            Thread.sleep(100);
        }
    }

    @Override
    public void close() {
        if (balancer != null) {
            balancer.destroyForcibly();
        }
        running.values().forEach(Process::destroyForcibly);
    }

    /** {@code server}'s status and last check's status in HAProxy's {@code show stat}, e.g. {@code UP L7OK}. */
    private String serverState(String server) throws IOException {
        String csv;
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(stats));
            channel.write(ByteBuffer.wrap("show stat\n".getBytes(UTF_8)));
            csv = new String(Channels.newInputStream(channel).readAllBytes(), UTF_8); // HAProxy closes after answering
        }
        List<String> header = null;
        for (String line : csv.split("\n")) {
            if (line.startsWith("# ")) {
                header = List.of(line.substring(2).split(",", -1));
                continue;
            }
            String[] fields = line.split(",", -1);
            if (header != null && fields.length > 1 && fields[0].equals("store_servers") && fields[1].equals(server)) {
                return fields[header.indexOf("status")] + " " + fields[header.indexOf("check_status")];
            }
        }
        throw new IOException("no line for " + server + " in: " + csv);
    }

    /** HAProxy's configuration as deploy/ha/render.sh renders it for an inventory of these servers behind one balancer. */
    private static String rendered(Path directory, int frontPort, List<Backend> backends)
            throws IOException, InterruptedException {
        StringBuilder inventory = new StringBuilder("network 127.0.0.1/32\n");
        for (Backend backend : backends) {
            inventory.append("host ").append(backend.name()).append(" 127.0.0.1 store store=").append(backend.port())
                    .append(" management=").append(backend.managementPort()).append('\n');
        }
        inventory.append("host lb 127.0.0.1 haproxy haproxy=").append(frontPort).append('\n');
        Path rendered = directory.resolve("rendered");
        Path file = Files.writeString(directory.resolve("inventory"), inventory);
        Process render = new ProcessBuilder("bash", Path.of("..", "deploy", "ha", "render.sh").toString(),
                file.toString(), rendered.toString()).redirectErrorStream(true).start();
        String printed = new String(render.getInputStream().readAllBytes(), UTF_8);
        assertTrue(render.waitFor(60, TimeUnit.SECONDS) && render.exitValue() == 0, "render.sh failed: " + printed);
        return Files.readString(rendered.resolve("lb").resolve("haproxy.cfg"), UTF_8);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
