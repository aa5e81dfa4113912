package org.storeservice.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP forwarder in front of the real database, so a test can take the database away without
 * touching the server: {@link #cut()} closes every connection and refuses new ones, {@link #stall()}
 * keeps connections open but lets no byte through (a network black hole), {@link #restore()} forwards
 * again on the same port.
 */
final class TcpProxy implements AutoCloseable {
    private final String targetHost;
    private final int targetPort;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Object stallMonitor = new Object();
    private volatile ServerSocket server;
    private volatile boolean stalled;
    private int port;

    TcpProxy(String targetHost, int targetPort) {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
    }

    /** Starts listening on a free port (the first time) or on the port it had. */
    synchronized TcpProxy start() throws IOException {
        ServerSocket listener = new ServerSocket();
        listener.setReuseAddress(true);
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        port = listener.getLocalPort();
        server = listener;
        Thread acceptor = new Thread(() -> accept(listener), "proxy-accept-" + port);
        acceptor.setDaemon(true);
        acceptor.start();
        return this;
    }

    int port() {
        return port;
    }

    /** The database "goes down": open connections are reset, new ones refused. */
    synchronized void cut() throws IOException {
        ServerSocket listener = server;
        server = null;
        if (listener != null) {
            listener.close();
        }
        closeAll();
    }

    /** The network "hangs": connections stay open and new ones are accepted, but nothing is forwarded. */
    void stall() {
        stalled = true;
    }

    /** The database "comes back": stalled connections are dropped, new ones are forwarded. */
    synchronized void restore() throws IOException {
        synchronized (stallMonitor) {
            stalled = false;
            stallMonitor.notifyAll();
        }
        closeAll();
        if (server == null) {
            start();
        }
    }

    @Override
    public synchronized void close() throws IOException {
        cut();
    }

    private void accept(ServerSocket listener) {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                if (!register(listener, client)) {
                    continue;
                }
                if (stalled) {
                    continue; // held open, never answered, until restore() or cut() closes it
                }
                Socket upstream = new Socket();
                upstream.connect(new InetSocketAddress(targetHost, targetPort), 5_000);
                if (!register(listener, upstream)) {
                    closeQuietly(client);
                    continue;
                }
                pump(client, upstream);
                pump(upstream, client);
            } catch (IOException e) {
                // listener closed by cut(), or the upstream refused: the client sees its connection drop
            }
        }
    }

    /** Keeps {@code socket} for cut() to close; or closes it now if cut() already ran for this listener. */
    private synchronized boolean register(ServerSocket listener, Socket socket) {
        if (server != listener) {
            closeQuietly(socket);
            return false;
        }
        sockets.add(socket);
        return true;
    }

    private void pump(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            byte[] buffer = new byte[16 * 1024];
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    awaitUnstalled();
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // one side closed
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "proxy-pump-" + port);
        thread.setDaemon(true);
        thread.start();
    }

    private void awaitUnstalled() throws InterruptedException {
        synchronized (stallMonitor) {
            while (stalled) {
                stallMonitor.wait();
            }
        }
    }

    private void closeAll() {
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
        sockets.clear();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
