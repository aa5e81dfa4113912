package org.storeservice.jetty;

import java.io.IOException;

/**
 * {@link StoreServer#start()} could not listen on one of its ports (in use, or not permitted): says which one, so that
 * an operator is told the port that is busy and not another.
 */
public final class ListenException extends IOException {
    private static final long serialVersionUID = 1L;

    /** Which of the server's ports could not be opened. */
    public enum Listener {
        /** The endpoint's port ({@link StoreServer.Builder#port}), or a proxy's in front of it. */
        ENDPOINT,
        /** The plain-HTTP port beside HTTPS ({@link StoreServer.Builder#httpPort}). */
        PLAIN_HTTP,
        /** The management port ({@link StoreServer.Builder#managementPort}). */
        MANAGEMENT
    }

    private final Listener listener;
    private final String host;
    private final int port;

    /**
     * {@code host}:{@code port}, the port of {@code listener}, could not be bound, for the reason {@code cause} says.
     *
     * @param listener which of the server's ports
     * @param host the address it was to listen on
     * @param port the port number
     * @param cause why it could not be bound
     */
    public ListenException(Listener listener, String host, int port, Throwable cause) {
        super("cannot listen on " + host + ":" + port + " (" + listener.name().toLowerCase(java.util.Locale.ROOT)
                .replace('_', ' ') + " port): " + reason(cause), cause);
        this.listener = listener;
        this.host = host;
        this.port = port;
    }

    /**
     * {@return the JDK's reason ("Address already in use", "Permission denied")}, from the innermost cause that has
     * one.
     */
    public String reason() {
        return reason(getCause());
    }

    private static String reason(Throwable cause) {
        String reason = null;
        for (Throwable t = cause; t != null; t = t.getCause()) {
            if (t.getMessage() != null) {
                reason = t.getMessage();
            }
        }
        return reason == null ? "cannot bind" : reason;
    }

    /** {@return which of the server's listeners could not listen} */
    public Listener listener() {
        return listener;
    }

    /** {@return the address it was to listen on} */
    public String host() {
        return host;
    }

    /** {@return the port it was to listen on} */
    public int port() {
        return port;
    }
}
