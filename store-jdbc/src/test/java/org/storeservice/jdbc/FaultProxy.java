package org.storeservice.jdbc;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A TCP forwarder between a storage and a real PostgreSQL that injects faults into exchanges, chosen by what the client
 * sends: each fault {@linkplain #arm armed} goes to the first client chunk that contains its pattern (a statement's
 * text: the URL must set {@code prepareThreshold=0}, so that every statement is sent as text). It has fired once the
 * server answered that chunk (or, cutting before, once the chunk was dropped). Several may be armed at once, each taken
 * by one exchange. While {@linkplain #arm held}, no client byte is forwarded on any connection after the fault fired,
 * until {@link #release}: the storage cannot find out what happened meanwhile (a partition right after a commit). Also
 * whole outages: every connection cut ({@link #cutAll}), new ones refused ({@link #refuse}).
 */
public final class FaultProxy implements AutoCloseable {

    /** What an armed fault does to the exchange it is taken by. */
    public enum Fault {
        /** The statement reaches the server, which runs (and, for a commit, commits) it; its answer is dropped and the
         * connection closed as soon as the server has answered. */
        DROP_ANSWER,
        /** The connection is cut just before the statement would have reached the server. */
        CUT_BEFORE,
        /** The statement reaches the server; its answer, and every later byte the server sends, is held back until the
         * client gives up on the connection (its socket time-out); then the server's side is closed too. */
        STALL_ANSWER,
        /** The statement reaches the server; the first part of its answer is forwarded, then the connection is reset
         * (a message cut in the middle). */
        RESET_MID_ANSWER
    }

    /** One armed fault: taken by the first chunk that holds its pattern; {@link #fired} once it has done its work. */
    public static final class Armed {
        private final Fault fault;
        private final byte[] pattern;
        private final boolean hold;
        private final CountDownLatch fired = new CountDownLatch(1);
        private boolean taken; // guarded by the proxy

        private Armed(Fault fault, byte[] pattern, boolean hold) {
            this.fault = fault;
            this.pattern = pattern;
            this.hold = hold;
        }

        /** Whether it fired (within {@code millis}). */
        public boolean awaitFired(long millis) throws InterruptedException {
            return fired.await(millis, TimeUnit.MILLISECONDS);
        }

        public boolean fired() {
            return fired.getCount() == 0;
        }
    }

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket listener;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final List<Armed> armed = new CopyOnWriteArrayList<>();
    private final Object gate = new Object();
    private boolean held; // guarded by gate
    private volatile boolean refusing;
    private volatile Armed last;

    public FaultProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        listener = new ServerSocket();
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread acceptor = new Thread(this::accept, "fault-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    /**
     * The next client chunk containing {@code statementText} gets {@code fault}; if {@code hold}, every connection
     * then stops forwarding what the client sends until {@link #release}.
     */
    public Armed arm(Fault fault, String statementText, boolean hold) {
        Armed armedFault = new Armed(fault, statementText.getBytes(UTF_8), hold);
        armed.add(armedFault);
        last = armedFault;
        return armedFault;
    }

    /** Waits until the fault armed last fired; {@code false} if it did not within {@code seconds}. */
    public boolean awaitFired(long seconds) throws InterruptedException {
        return last.awaitFired(TimeUnit.SECONDS.toMillis(seconds));
    }

    /** Forgets the faults armed and not taken yet. */
    public void disarmAll() {
        armed.clear();
    }

    /** Stops forwarding what the clients send, on every connection, until {@link #release} (a partition). */
    public void hold() {
        synchronized (gate) {
            held = true;
        }
    }

    /** Lets what the clients send through again. */
    public void release() {
        synchronized (gate) {
            held = false;
            gate.notifyAll();
        }
    }

    /** Resets every connection open now (the database's host vanished, or its postmaster was killed). */
    public void cutAll() {
        for (Socket socket : sockets) {
            reset(socket);
        }
    }

    /** While {@code refuse}, new connections are closed as soon as they are accepted (the database is down). */
    public void refuse(boolean refuse) {
        this.refusing = refuse;
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
                if (refusing) {
                    reset(client);
                    continue;
                }
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
        /** Set once this connection's fault was taken: the server's bytes go as it says. */
        private volatile Armed firedHere;

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
                    Armed taken = takeFault(buffer, n);
                    if (taken != null && taken.fault == Fault.CUT_BEFORE) {
                        firedHere = taken;
                        fired(taken);
                        break;
                    }
                    if (taken != null) {
                        firedHere = taken; // before the bytes go: the answer must not slip through
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // one side closed
            } finally {
                // The client gave up (for a stalled answer, at its socket time-out) or the fault cut it: the server's
                // side goes too, so that no backend is left waiting for a client that is gone.
                closeBoth();
            }
        }

        void serverToClient() {
            byte[] buffer = new byte[64 * 1024];
            try (InputStream in = server.getInputStream(); OutputStream out = client.getOutputStream()) {
                int n;
                boolean answered = false;
                while ((n = in.read(buffer)) >= 0) {
                    Armed here = firedHere;
                    if (here != null && !answered) {
                        answered = true;
                        if (here.fault == Fault.RESET_MID_ANSWER) {
                            out.write(buffer, 0, Math.max(1, n / 2));
                            out.flush();
                        }
                        fired(here); // the server has done what was sent (a commit, committed) and answered
                    }
                    if (here != null && (here.fault == Fault.DROP_ANSWER || here.fault == Fault.RESET_MID_ANSWER)) {
                        if (here.fault == Fault.RESET_MID_ANSWER) {
                            reset(client);
                        }
                        break; // drop the answer, and the connection
                    }
                    if (here != null && here.fault == Fault.STALL_ANSWER) {
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
            sockets.remove(client);
            sockets.remove(server);
        }
    }

    /** The first armed fault not taken yet whose pattern {@code chunk} holds, taken (once). */
    private synchronized Armed takeFault(byte[] chunk, int length) {
        for (Armed candidate : armed) {
            if (!candidate.taken && contains(chunk, length, candidate.pattern)) {
                candidate.taken = true;
                armed.remove(candidate);
                return candidate;
            }
        }
        return null;
    }

    private void fired(Armed fault) {
        if (fault.hold) {
            synchronized (gate) {
                held = true;
            }
        }
        fault.fired.countDown();
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

    /** Closes {@code socket} with a reset (no orderly shutdown): what a client sees of a host that died. */
    private static void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException e) {
            // closed already
        }
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
