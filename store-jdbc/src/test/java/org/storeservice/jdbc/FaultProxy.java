package org.storeservice.jdbc;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A TCP forwarder between a storage and a real PostgreSQL that injects one fault into one exchange, chosen by what the
 * client sends: armed with {@link #arm}, the first chunk the client sends that contains a pattern (a statement's text:
 * the URL must set {@code prepareThreshold=0}, so that every statement is sent as text) gets the fault. It has fired
 * once the server answered that chunk (or, cutting before, once the chunk was dropped). While {@linkplain #arm held},
 * no client byte is forwarded on any connection after the fault fired, until {@link #release}: the test writes through
 * another way in between, and the storage cannot find out what happened before that.
 */
final class FaultProxy implements AutoCloseable {

    enum Fault {
        /** The statement reaches the server, which runs (and, for a commit, commits) it; its answer is dropped and the
         * connection closed as soon as the server has answered. */
        DROP_ANSWER,
        /** The connection is cut just before the statement would have reached the server. */
        CUT_BEFORE,
        /** The statement reaches the server; its answer, and every later byte the server sends, is held back for ever
         * (until the client gives up on the connection: its socket time-out). */
        STALL_ANSWER
    }

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket listener;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Object gate = new Object();
    private volatile byte[] pattern;
    private volatile Fault fault;
    private volatile boolean holdAfterFiring;
    private boolean held; // guarded by gate
    private volatile CountDownLatch fired = new CountDownLatch(1);

    FaultProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        listener = new ServerSocket();
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread acceptor = new Thread(this::accept, "fault-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    int port() {
        return listener.getLocalPort();
    }

    /**
     * The next client chunk containing {@code statementText} gets {@code fault}; if {@code hold}, every connection
     * then stops forwarding what the client sends until {@link #release}.
     */
    void arm(Fault fault, String statementText, boolean hold) {
        fired = new CountDownLatch(1);
        this.holdAfterFiring = hold;
        this.fault = fault;
        this.pattern = statementText.getBytes(UTF_8);
    }

    /** Waits until the armed fault fired; {@code false} if it did not within {@code seconds}. */
    boolean awaitFired(long seconds) throws InterruptedException {
        return fired.await(seconds, TimeUnit.SECONDS);
    }

    /** Lets what the clients send through again. */
    void release() {
        synchronized (gate) {
            held = false;
            gate.notifyAll();
        }
    }

    @Override
    public void close() throws IOException {
        release();
        listener.close();
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket();
                server.connect(new InetSocketAddress(targetHost, targetPort), 5_000);
                sockets.add(client);
                sockets.add(server);
                Exchange exchange = new Exchange(client, server);
                start(exchange::clientToServer, "fault-proxy-up");
                start(exchange::serverToClient, "fault-proxy-down");
            } catch (IOException e) {
                // the listener closed, or the server refused: the client sees its connection drop
            }
        }
    }

    private static void start(Runnable pump, String name) {
        Thread thread = new Thread(pump, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** One client connection and its server connection. */
    private final class Exchange {
        private final Socket client;
        private final Socket server;
        /** Set once this connection's fault fired: the server's bytes go nowhere. */
        private volatile Fault firedHere;

        Exchange(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void clientToServer() {
            byte[] buffer = new byte[64 * 1024];
            try (InputStream in = client.getInputStream(); OutputStream out = server.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    awaitGate();
                    Fault armed = takeFault(buffer, n);
                    if (armed == Fault.CUT_BEFORE) {
                        firedHere = armed;
                        fired();
                        break;
                    }
                    if (armed != null) {
                        firedHere = armed; // before the bytes go: the answer must not slip through
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // one side closed
            } finally {
                if (firedHere != Fault.STALL_ANSWER) {
                    closeBoth();
                }
            }
        }

        void serverToClient() {
            byte[] buffer = new byte[64 * 1024];
            try (InputStream in = server.getInputStream(); OutputStream out = client.getOutputStream()) {
                int n;
                boolean answered = false;
                while ((n = in.read(buffer)) >= 0) {
                    Fault here = firedHere;
                    if (here != null && !answered) {
                        answered = true;
                        fired(); // the server has done what was sent (a commit, committed) and answered
                    }
                    if (here == Fault.DROP_ANSWER) {
                        break; // drop the answer, and the connection
                    }
                    if (here == Fault.STALL_ANSWER) {
                        continue; // read and forgotten; the client waits until its socket time-out
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // one side closed
            } finally {
                closeBoth();
            }
        }

        private void closeBoth() {
            closeQuietly(client);
            closeQuietly(server);
        }
    }

    /** The armed fault, taken (once), if {@code chunk} holds the pattern. */
    private synchronized Fault takeFault(byte[] chunk, int length) {
        byte[] wanted = pattern;
        if (wanted == null || !contains(chunk, length, wanted)) {
            return null;
        }
        pattern = null;
        return fault;
    }

    private void fired() {
        if (holdAfterFiring) {
            synchronized (gate) {
                held = true;
            }
        }
        fired.countDown();
    }

    private void awaitGate() throws InterruptedException {
        synchronized (gate) {
            while (held) {
                gate.wait();
            }
        }
    }

    private static boolean contains(byte[] chunk, int length, byte[] wanted) {
        outer:
        for (int i = 0; i + wanted.length <= length; i++) {
            for (int j = 0; j < wanted.length; j++) {
                if (chunk[i + j] != wanted[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
