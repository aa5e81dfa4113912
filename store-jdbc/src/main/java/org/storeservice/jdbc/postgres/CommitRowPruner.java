package org.storeservice.jdbc.postgres;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the commit rows older than their retention, every so often, on a thread of its own (off the write path). A
 * failure is logged at DEBUG while an outage would explain it; {@value #FAILURES_BEFORE_WARN} in a row (minutes of
 * failing, or a database that refuses the deletion) at WARN, once, then again once it succeeds.
 */
final class CommitRowPruner implements AutoCloseable {
    static final int FAILURES_BEFORE_WARN = 3;

    private static final Logger log = LoggerFactory.getLogger(CommitRowPruner.class);

    private final PooledConnections pool;
    private final CommitRows commitRows;
    private final Duration kept;
    private final ScheduledExecutorService scheduler;
    private int failuresInARow; // the scheduler's thread only

    CommitRowPruner(PooledConnections pool, CommitRows commitRows, Duration kept, Duration every, String name) {
        this.pool = pool;
        this.commitRows = commitRows;
        this.kept = kept;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(task -> {
            Thread thread = new Thread(task, "store-pg-pruner-" + name);
            thread.setDaemon(true);
            return thread;
        });
        scheduler.scheduleWithFixedDelay(this::prune, every.toMillis(), every.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** One round; for tests, which do not wait for the schedule. */
    synchronized void prune() {
        try (Connection connection = pool.borrow()) {
            int pruned = commitRows.prune(connection, kept);
            log.debug("Pruned {} commit rows older than {}", pruned, kept);
            if (failuresInARow >= FAILURES_BEFORE_WARN) {
                log.warn("Pruning PostgreSQL's commit rows succeeds again");
            }
            failuresInARow = 0;
        } catch (SQLException | RuntimeException e) {
            failuresInARow++;
            if (failuresInARow == FAILURES_BEFORE_WARN) {
                log.warn("Pruning PostgreSQL's commit rows failed {} times in a row ({}); {} keeps growing until it"
                        + " succeeds", failuresInARow, PostgresFailures.oneLine(e), CommitRows.TABLE);
            } else {
                log.debug("Pruning the commit rows failed; the next round tries again", e);
            }
        }
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
