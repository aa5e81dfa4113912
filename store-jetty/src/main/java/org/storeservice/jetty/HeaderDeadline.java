package org.storeservice.jetty;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import org.eclipse.jetty.io.Connection;
import org.eclipse.jetty.io.EndPoint;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.component.AbstractLifeCycle;
import org.eclipse.jetty.util.thread.Scheduler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Closes a connection whose request head (request line and header fields) is still arriving a deadline after
 * its first bytes came, answering {@code 408 Request Timeout} first (RFC 9110 §15.5.9).
 *
 * <p>The idle timeout cannot do this: each byte restarts it, so a client sending its head one byte at a time
 * would hold the connection forever. Jetty 12.1 has no such deadline of its own, so this is one: a
 * {@link Connection.Listener} on the connector that, every quarter of the deadline (at most every second),
 * looks at each open connection's counters. A connection is reading a head when every request it began was
 * answered ({@code messagesIn == messagesOut}) and bytes arrived since; the deadline counts from the first
 * look that saw them, so it fires between the deadline and the deadline plus one look's interval. It only
 * reads Jetty's public, thread-safe counters, so it neither slows nor touches the request path.
 */
public final class HeaderDeadline extends AbstractLifeCycle implements Connection.Listener {
    private static final Logger log = LoggerFactory.getLogger(HeaderDeadline.class);
    private static final byte[] REQUEST_TIMEOUT = ("HTTP/1.1 408 Request Timeout\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Content-Length: 15\r\nConnection: close\r\n\r\nRequest Timeout").getBytes(StandardCharsets.US_ASCII);

    private final long deadlineNanos;
    private final long intervalNanos;
    private final Scheduler scheduler;
    private final Map<Connection, Watch> watched = new ConcurrentHashMap<>();
    private volatile Scheduler.Task next;

    /**
     * A deadline of {@code deadline} from a head's first bytes, checked with {@code scheduler}.
     *
     * @param deadline how long a request head may take to arrive
     * @param scheduler the scheduler that runs the checks (the server's)
     */
    public HeaderDeadline(Duration deadline, Scheduler scheduler) {
        this.deadlineNanos = deadline.toNanos();
        this.intervalNanos = Math.max(TimeUnit.MILLISECONDS.toNanos(10), Math.min(TimeUnit.SECONDS.toNanos(1), deadlineNanos / 4));
        this.scheduler = scheduler;
    }

    @Override
    public void onOpened(Connection connection) {
        watched.put(connection, new Watch());
    }

    @Override
    public void onClosed(Connection connection) {
        watched.remove(connection);
    }

    @Override
    protected void doStart() {
        schedule();
    }

    @Override
    protected void doStop() {
        Scheduler.Task task = next;
        if (task != null) {
            task.cancel();
        }
        watched.clear();
    }

    private void schedule() {
        next = scheduler.schedule(this::look, intervalNanos, TimeUnit.NANOSECONDS);
    }

    private void look() {
        long now = System.nanoTime();
        try {
            watched.forEach((connection, watch) -> {
                if (watch.overdue(connection, now, deadlineNanos)) {
                    expire(connection);
                }
            });
        } finally {
            if (isRunning()) {
                schedule();
            }
        }
    }

    private void expire(Connection connection) {
        watched.remove(connection);
        log.debug("Request head not complete within {} ms: closing {}", deadlineNanos / 1_000_000, connection);
        EndPoint endPoint = connection.getEndPoint();
        try {
            endPoint.write(Callback.from(connection::close, failure -> connection.close()), ByteBuffer.wrap(REQUEST_TIMEOUT));
        } catch (RuntimeException e) {
            // A write still pending (a response going out as the head completed): no 408 then, just close.
            connection.close();
        }
    }

    /** What the last look saw of one connection. Touched only by the looking thread, one look at a time. */
    private static final class Watch {
        private static final long NONE = Long.MIN_VALUE;
        private long answered;
        private long bytesAtRest;
        private long headSince = NONE;

        /** Whether the connection has been reading a head for longer than {@code deadlineNanos}. */
        boolean overdue(Connection connection, long now, long deadlineNanos) {
            long requests = connection.getMessagesIn();
            long bytes = connection.getBytesIn();
            if (requests != connection.getMessagesOut() || requests != answered) {
                // A request is being served, or one was since the last look: its bytes were no head.
                answered = requests == connection.getMessagesOut() ? requests : -1;
                bytesAtRest = bytes;
                headSince = NONE;
                return false;
            }
            if (bytes == bytesAtRest) {
                return false; // nothing arrived since the last answer: idle, the idle timeout's business
            }
            if (headSince == NONE) {
                headSince = now;
                return false;
            }
            return now - headSince >= deadlineNanos;
        }
    }
}
