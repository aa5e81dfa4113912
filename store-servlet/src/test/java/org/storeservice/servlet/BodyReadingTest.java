package org.storeservice.servlet;

import static java.nio.charset.StandardCharsets.ISO_8859_1;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.apache.catalina.Context;
import org.apache.catalina.LifecycleException;
import org.apache.catalina.startup.Tomcat;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.Status;
import org.storeservice.api.Store;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.StoreCodec;
import org.storeservice.testkit.wire.QueuingStore;
import org.storeservice.testkit.wire.RawSocket;

/**
 * How the servlet reads bodies, on Tomcat and Jetty EE10 with few threads: a client that trickles its body holds
 * no container thread, and every body's memory and temporary file are given back however its exchange ends.
 * Waits here are loops on what the server did, bounded by the class's timeout; nothing asserts on elapsed time.
 */
@Timeout(60)
class BodyReadingTest {
    private static final String PATH = "/API/Store.asmx";
    /** Long enough that no connection of a test idles out while the test still needs it. */
    private static final int PATIENT_IDLE_MILLIS = 60_000;
    /** More than either container below has threads. */
    private static final int SLOW_CLIENTS = 12;

    @TempDir
    Path baseDir;

    enum Container { TOMCAT, JETTY_EE10 }

    @ParameterizedTest
    @EnumSource(Container.class)
    void slowBodiesHoldNoContainerThread(Container container) throws Exception {
        try (MemoryStorage storage = new MemoryStorage()) {
            StoreCodec codec = StoreCodec.builder(DefaultStore.of(storage)).build();
            try (Running server = start(container, codec, PATIENT_IDLE_MILLIS)) {
                List<Socket> slow = new ArrayList<>();
                List<byte[]> envelopes = new ArrayList<>();
                try {
                    for (int i = 0; i < SLOW_CLIENTS; i++) {
                        byte[] envelope = envelope("slow-" + i, "x".repeat(200));
                        envelopes.add(envelope);
                        slow.add(sendHeadAndPart(server.port(), envelope, 10));
                    }
                    // Each body, shorter than a first memory segment, reserves exactly its declared length once
                    // the servlet has read from it: then every slow request is inside the servlet at once.
                    long declared = envelopes.stream().mapToLong(e -> e.length).sum();
                    while (codec.bodyMemoryBudget().reserved() < declared) {
                        Thread.sleep(10);
                    }

                    // Were the slow clients each holding a thread, this one would never get one.
                    HttpResponse<String> normal = HttpClient.newHttpClient().send(
                            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + PATH))
                                    .header("Content-Type", "text/xml; charset=utf-8")
                                    .header("SOAPAction", "\"http://tempuri.org/WriteString\"")
                                    .POST(HttpRequest.BodyPublishers.ofByteArray(envelope("normal", "v")))
                                    .build(),
                            HttpResponse.BodyHandlers.ofString());
                    assertEquals(200, normal.statusCode(), normal::body);
                    assertTrue(normal.body().contains("<WriteStringResult>Success</WriteStringResult>"), normal::body);
                    assertEquals("v", storage.get("normal").orElseThrow().text());

                    for (int i = 0; i < SLOW_CLIENTS; i++) {
                        byte[] envelope = envelopes.get(i);
                        String answer = sendRestAndRead(slow.get(i), Arrays.copyOfRange(envelope, 10, envelope.length));
                        assertTrue(answer.startsWith("HTTP/1.1 200 "), answer);
                        assertTrue(answer.contains("<WriteStringResult>Success</WriteStringResult>"), answer);
                        assertEquals("x".repeat(200), storage.get("slow-" + i).orElseThrow().text());
                    }
                } finally {
                    for (Socket socket : slow) {
                        socket.close();
                    }
                }
                assertEquals(0, codec.bodyMemoryBudget().reserved());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Container.class)
    void aBodyPastItsMemoryGoesToAFileDeletedAfterTheExchange(Container container) throws Exception {
        Path tmp = Path.of(System.getProperty("java.io.tmpdir"));
        try (MemoryStorage storage = new MemoryStorage()) {
            StoreCodec codec = StoreCodec.builder(DefaultStore.of(storage))
                    .limits(CodecLimits.builder().bodyMemoryBytes(1024).build())
                    .build();
            String value = "y".repeat(20_000);
            byte[] envelope = envelope("spilled", value);
            try (Running server = start(container, codec, PATIENT_IDLE_MILLIS)) {
                List<Path> before = bodyFiles(tmp);
                try (Socket socket = sendHeadAndPart(server.port(), envelope, 8_000)) {
                    while (bodyFiles(tmp).size() <= before.size()) { // the body went past 1 KiB: to a file
                        Thread.sleep(10);
                    }
                    String answer = sendRestAndRead(socket, Arrays.copyOfRange(envelope, 8_000, envelope.length));
                    assertTrue(answer.startsWith("HTTP/1.1 200 "), answer);
                }
                assertEquals(value, storage.get("spilled").orElseThrow().text());
                assertEquals(before, bodyFiles(tmp));
                assertEquals(0, codec.bodyMemoryBudget().reserved());
                assertTrue(codec.bodyMemoryBudget().highWaterMark() > 0);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Container.class)
    void aStalledBodyIsAnswered408AndGivesItsMemoryBack(Container container) throws Exception {
        try (MemoryStorage storage = new MemoryStorage()) {
            StoreCodec codec = StoreCodec.builder(DefaultStore.of(storage)).build();
            try (Running server = start(container, codec, 500);
                    Socket socket = sendHeadAndPart(server.port(), envelope("stalled", "v"), 10)) {
                String answer = RawSocket.readUntilClosed(socket); // closed once its idle timeout is past

                assertTrue(answer.startsWith("HTTP/1.1 408 "), answer);
                assertEquals(0, codec.bodyMemoryBudget().reserved());
                assertTrue(storage.get("stalled").isEmpty());
            }
        }
    }

    /**
     * Writes the store queues (as SQLite's group commit does) hold no container thread either: more of them are in
     * flight than the container has threads, and it still serves another request; each is answered once its write
     * completes, from a thread that is not the container's.
     */
    @ParameterizedTest
    @EnumSource(Container.class)
    void queuedWritesHoldNoContainerThreadAndAreAnsweredOnceCompleted(Container container) throws Exception {
        QueuingStore store = new QueuingStore();
        StoreCodec codec = StoreCodec.builder(store).build();
        try (Running server = start(container, codec, PATIENT_IDLE_MILLIS)) {
            List<Socket> waiting = new ArrayList<>();
            try {
                for (int i = 0; i < SLOW_CLIENTS; i++) {
                    byte[] envelope = envelope("queued-" + i, "v" + i);
                    waiting.add(sendHeadAndPart(server.port(), envelope, envelope.length));
                }
                while (store.queued().size() < SLOW_CLIENTS) {
                    Thread.sleep(10);
                }

                assertEquals(200, wsdlStatus(server), "a container thread was free while every write waited");

                Thread committer = new Thread(() -> store.queued().forEach(write -> write.complete(Status.SUCCESS)),
                        "test-committer");
                committer.start();
                committer.join();
                for (Socket socket : waiting) {
                    String answer = RawSocket.readUntilClosed(socket);
                    assertTrue(answer.startsWith("HTTP/1.1 200 "), answer);
                    assertTrue(answer.contains("<WriteStringResult>Success</WriteStringResult>"), answer);
                }
            } finally {
                for (Socket socket : waiting) {
                    socket.close();
                }
            }
            assertEquals(0, codec.bodyMemoryBudget().reserved());
        }
    }

    /**
     * A client that goes away (a reset) while its write is queued costs nothing once the write completes: writing
     * the answer fails or goes nowhere, the body's memory is given back, and the container goes on serving.
     */
    @ParameterizedTest
    @EnumSource(Container.class)
    void aClientGoneBeforeItsQueuedWriteCompletesCostsNothing(Container container) throws Exception {
        QueuingStore store = new QueuingStore();
        StoreCodec codec = StoreCodec.builder(store).build();
        try (Running server = start(container, codec, PATIENT_IDLE_MILLIS)) {
            for (int i = 0; i < SLOW_CLIENTS; i++) {
                byte[] envelope = envelope("gone-" + i, "v" + i);
                try (Socket socket = sendHeadAndPart(server.port(), envelope, envelope.length)) {
                    while (store.queued().size() <= i) {
                        Thread.sleep(10);
                    }
                    socket.setSoLinger(true, 0); // a reset, as a client that crashed
                }
            }
            store.queued().forEach(write -> write.complete(Status.SUCCESS));

            assertEquals(200, wsdlStatus(server));
            long deadline = System.nanoTime() + 10_000_000_000L; // the answers are written on container threads
            while (codec.bodyMemoryBudget().reserved() != 0 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertEquals(0, codec.bodyMemoryBudget().reserved());
        }
    }


    /** The status of a WSDL request: 200 once a container thread is free to serve it. */
    private static int wsdlStatus(Running server) throws IOException, InterruptedException {
        return HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + PATH + "?wsdl")).build(),
                HttpResponse.BodyHandlers.discarding()).statusCode();
    }

    private static byte[] envelope(String key, String value) {
        return ("<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/"
                + "soap/envelope/\"><soap:Body><WriteString xmlns=\"http://tempuri.org/\"><key>" + key + "</key><value>"
                + value + "</value></WriteString></soap:Body></soap:Envelope>").getBytes(UTF_8);
    }

    /** Opens a connection and sends the request's head with the first {@code part} bytes of its body. */
    private static Socket sendHeadAndPart(int port, byte[] envelope, int part) throws IOException {
        Socket socket = new Socket("127.0.0.1", port);
        socket.setSoTimeout(30_000); // a safety net: the class's timeout fails the test first
        OutputStream out = socket.getOutputStream();
        out.write(("POST " + PATH + " HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n"
                + "Content-Type: text/xml; charset=utf-8\r\nSOAPAction: \"http://tempuri.org/WriteString\"\r\n"
                + "Content-Length: " + envelope.length + "\r\nConnection: close\r\n\r\n").getBytes(ISO_8859_1));
        out.write(envelope, 0, part);
        out.flush();
        return socket;
    }

    private static String sendRestAndRead(Socket socket, byte[] rest) throws IOException {
        socket.getOutputStream().write(rest);
        socket.getOutputStream().flush();
        return RawSocket.readUntilClosed(socket);
    }

    private static List<Path> bodyFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(f -> f.getFileName().toString().startsWith("store-body-")).sorted().toList();
        }
    }

    /** A running container serving {@code codec} at {@link #PATH}, with few threads. */
    private interface Running extends AutoCloseable {
        int port();

        /** Stops the container; a failure to stop fails the test. */
        @Override
        void close();
    }

    private Running start(Container container, StoreCodec codec, int idleMillis) throws Exception {
        return switch (container) {
            case TOMCAT -> startTomcat(codec, idleMillis);
            case JETTY_EE10 -> startJetty(codec, idleMillis);
        };
    }

    private Running startTomcat(StoreCodec codec, int idleMillis) throws LifecycleException {
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(baseDir.toString());
        tomcat.setHostname("127.0.0.1");
        tomcat.setPort(0);
        tomcat.getConnector().setProperty("maxThreads", "4");
        tomcat.getConnector().setProperty("minSpareThreads", "1");
        tomcat.getConnector().setProperty("connectionTimeout", Integer.toString(idleMillis));
        Context context = tomcat.addContext("", baseDir.toString());
        StoreServlet servlet = StoreServlet.of(codec);
        context.addServletContainerInitializer((classes, sc) -> StoreServlet.register(sc, PATH, servlet), null);
        tomcat.start();
        return new Running() {
            @Override
            public int port() {
                return tomcat.getConnector().getLocalPort();
            }

            @Override
            public void close() {
                try {
                    tomcat.stop();
                    tomcat.destroy();
                } catch (LifecycleException e) {
                    throw new IllegalStateException(e);
                }
            }
        };
    }

    private static Running startJetty(StoreCodec codec, int idleMillis) throws Exception {
        Server jetty = new Server(new QueuedThreadPool(8, 2));
        ServerConnector connector = new ServerConnector(jetty, 1, 1);
        connector.setHost("127.0.0.1");
        connector.setPort(0);
        connector.setIdleTimeout(idleMillis);
        jetty.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler("/");
        ServletHolder holder = new ServletHolder(StoreServlet.of(codec));
        holder.setInitOrder(1);
        holder.setAsyncSupported(true);
        context.addServlet(holder, PATH + "/*");
        jetty.setHandler(context);
        jetty.start();
        return new Running() {
            @Override
            public int port() {
                return connector.getLocalPort();
            }

            @Override
            public void close() {
                try {
                    jetty.stop();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        };
    }
}
