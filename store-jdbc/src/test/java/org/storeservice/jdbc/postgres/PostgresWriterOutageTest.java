package org.storeservice.jdbc.postgres;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.zaxxer.hikari.HikariDataSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.jdbc.PostgresStorageConfig;
import org.storeservice.jdbc.TestPostgres;
import org.storeservice.jdbc.internal.SchemaVersion;
import org.storeservice.jdbc.internal.Sql;
import org.storeservice.jdbc.internal.TableName;
import org.storeservice.jdbc.internal.WriteRequest;

/**
 * When {@link PostgresWriter} says writes stopped committing. A lane that waited out a failover for a pooled connection
 * fails only after another lane has committed again; that failure belongs to the outage that has just ended and must
 * not start another (a second pair of WARN lines for an outage that lasted a millisecond, seen in
 * {@code HighAvailabilityIT}). Likewise a commit that a dying primary finishes for an attempt begun before the outage
 * must not end it.
 */
class PostgresWriterOutageTest {
    @RegisterExtension
    static final TestPostgres postgres = new TestPostgres();

    @Test
    void aFailedAttemptThatBeganBeforeTheLastCommitStartsNoOutage() throws Exception {
        withWriter("writer_outage", writer -> {
            long beforeTheCommit = writer.commits();
            assertTrue(writer.write(text("a")));
            SQLTransientConnectionException poolTimedOut = new SQLTransientConnectionException(
                    "Connection is not available, request timed out");

            writer.attemptFailed(poolTimedOut, beforeTheCommit, System.nanoTime());
            assertTrue(writer.committing(), "a failure of an attempt begun before the last commit is no new outage");

            writer.attemptFailed(poolTimedOut, writer.commits(), System.nanoTime());
            assertFalse(writer.committing(), "a failure since the last commit is");

            assertTrue(writer.write(text("b")));
            assertTrue(writer.committing(), "and the next commit ends it");
        });
    }

    @Test
    void aCommitOfAnAttemptThatBeganBeforeTheOutageDoesNotEndIt() throws Exception {
        withWriter("writer_outage_end", writer -> {
            long beganBeforeTheOutage = System.nanoTime();
            writer.attemptFailed(new SQLTransientConnectionException("terminating connection"), writer.commits(),
                    System.nanoTime());
            assertFalse(writer.committing());

            writer.committed(beganBeforeTheOutage);
            assertFalse(writer.committing(), "a dying primary finishing a commit begun earlier ends no outage");

            assertTrue(writer.write(text("a")));
            assertTrue(writer.committing(), "a commit of an attempt begun since the outage started ends it");
        });
    }

    @Test
    void aStatementTimeOutStartsNoOutage() throws Exception {
        withWriter("writer_outage_timeout", writer -> {
            writer.attemptFailed(new java.sql.SQLException("canceling statement due to statement timeout", "57014"),
                    writer.commits(), System.nanoTime());
            assertTrue(writer.committing(), "one slow statement: readiness stays 200, no WARN line");
        });
    }

    /**
     * A vanished host is noticed only when the socket time-out runs out: the outage is dated from when the failed
     * attempt began, which is when the writes began to wait, so the logged outage is the one clients saw.
     */
    @Test
    void anOutageIsDatedFromWhenTheFailedAttemptBegan() throws Exception {
        withWriter("writer_outage_dated", writer -> {
            long attemptBegan = System.nanoTime() - java.util.concurrent.TimeUnit.SECONDS.toNanos(6);
            writer.attemptFailed(new java.sql.SQLException("An I/O error occurred while sending to the backend.",
                    "08006"), writer.commits(), attemptBegan);
            assertFalse(writer.committing());
            org.junit.jupiter.api.Assertions.assertEquals(attemptBegan, writer.outageSince());
            assertTrue(writer.write(text("a")));
            assertTrue(writer.committing());
        });
    }

    /**
     * A lane whose attempt began after the database died fails at once and starts the outage; the lane that was in
     * flight notices later, with writes that had waited longer: the outage is dated from those.
     */
    @Test
    void anOutageNoticedFirstByNewerWritesIsDatedFromTheOlderOnes() throws Exception {
        withWriter("writer_outage_older", writer -> {
            long inFlightBegan = System.nanoTime() - java.util.concurrent.TimeUnit.SECONDS.toNanos(6);
            long newerBegan = System.nanoTime() - java.util.concurrent.TimeUnit.SECONDS.toNanos(1);
            long commits = writer.commits();
            writer.attemptFailed(new java.sql.SQLException("Connection refused", "08001"), commits, newerBegan);
            org.junit.jupiter.api.Assertions.assertEquals(newerBegan, writer.outageSince());
            writer.attemptFailed(new java.sql.SQLException("An I/O error occurred while sending to the backend.",
                    "08006"), commits, inFlightBegan);
            org.junit.jupiter.api.Assertions.assertEquals(inFlightBegan, writer.outageSince());
            assertTrue(writer.write(text("a")));
            assertTrue(writer.committing());
        });
    }

    private interface WriterTest {
        void run(PostgresWriter writer) throws Exception;
    }

    /** Runs {@code test} on a writer with one lane on {@code name}, created if missing, and closes it after. */
    private static void withWriter(String name, WriterTest test) throws Exception {
        PostgresStorageConfig config = PostgresStorageConfig.fromUri(postgres.uri(name));
        TableName table = TableName.parse(config.table());
        PostgresDialect dialect = new PostgresDialect();
        try (Connection connection = DriverManager.getConnection(config.jdbcUrl(), config.driverProperties())) {
            SchemaVersion.ensure(connection, dialect, table);
        }
        try (HikariDataSource pool = new HikariDataSource(PooledConnections.hikariConfig(config))) {
            PostgresWriter writer = new PostgresWriter(pool, new PostgresBatch(table, new Sql(table), dialect), 1,
                    Duration.ofSeconds(30));
            try {
                test.run(writer);
            } finally {
                writer.close();
            }
        }
    }

    private static WriteRequest text(String key) {
        return new WriteRequest(key, EntryKind.TEXT, "value", null, OverwritePolicy.REPLACE, Instant.now());
    }
}
