package org.storeservice.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies SQLite's write-ahead log into the database file on a thread and connection of its own. SQLite would
 * otherwise checkpoint inside the commit that grows the log past 1,000 pages, on the writer thread: every few
 * batches the writer waited for pages to be copied and the database file to be synced (measured: 20 % more
 * durable writes per second at 64 writers without that wait). A PASSIVE checkpoint neither waits for nor
 * blocks the writer or readers. The writer keeps SQLite's own checkpoint at {@link #WRITER_BACKSTOP_PAGES} in
 * case this thread falls behind or fails.
 *
 * <p>Idle when nothing is written: it runs once after commits, {@link #GATHER_MILLIS} later.
 */
final class WalCheckpointer implements AutoCloseable {
    /** The writer's own automatic checkpoint (pages of the log, about 40 MiB), a backstop only. */
    static final int WRITER_BACKSTOP_PAGES = 10_000;
    /** Commits gather this long before one checkpoint copies them all: fewer, larger checkpoints. */
    private static final long GATHER_MILLIS = 20;

    private static final Logger log = LoggerFactory.getLogger(WalCheckpointer.class);

    private final Connection connection;
    private final Thread thread;
    private final AtomicBoolean committed = new AtomicBoolean();
    private volatile boolean closed;
    private volatile long checkpoints; // written by this checkpointer's thread only

    /** Starts checkpointing through {@code connection}, which it owns from now on. */
    WalCheckpointer(Connection connection, String name) {
        this.connection = connection;
        this.thread = new Thread(this::run, "store-checkpoint-" + name);
        thread.setDaemon(true); // like the writer: an unclosed storage must not keep the JVM alive
        thread.start();
    }

    /** Called by the writer after each commit: cheap, never waits. */
    void committed() {
        if (!committed.getAndSet(true)) {
            LockSupport.unpark(thread);
        }
    }

    private void run() {
        boolean failing = false;
        try (Statement statement = connection.createStatement()) {
            while (!closed) {
                if (!committed.getAndSet(false)) {
                    LockSupport.park(this);
                    continue;
                }
                LockSupport.parkNanos(this, TimeUnit.MILLISECONDS.toNanos(GATHER_MILLIS));
                try {
                    statement.executeQuery("PRAGMA wal_checkpoint(PASSIVE)").close(); // the checkpoint runs at the first step
                    checkpoints++;
                    failing = false;
                } catch (SQLException e) {
                    if (!failing) { // once per run of failures: the writer's own checkpoints go on meanwhile
                        log.warn("Checkpointing the SQLite log failed; the writer checkpoints by itself meanwhile", e);
                    }
                    failing = true;
                }
            }
        } catch (SQLException e) {
            log.warn("The SQLite checkpointer stopped; the writer checkpoints by itself", e);
        } finally {
            try {
                connection.close();
            } catch (SQLException e) {
                log.debug("Closing the SQLite checkpoint connection failed", e);
            }
        }
    }

    /** Checkpoints run so far; for tests. */
    long checkpoints() {
        return checkpoints;
    }

    /** Stops the thread (after a checkpoint in progress) and closes its connection. Closing twice is harmless. */
    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
        boolean interrupted = false;
        while (thread.isAlive()) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
