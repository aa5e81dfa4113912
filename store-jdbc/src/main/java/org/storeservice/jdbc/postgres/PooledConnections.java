package org.storeservice.jdbc.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.jdbc.PostgresStorageConfig;
import org.storeservice.jdbc.internal.ReadConnections;

/**
 * PostgreSQL's pool (HikariCP) and what borrows from it: reads, the readiness probe, large values, the pruning of commit
 * rows; the writer's lanes have connections of their own ({@link LaneConnection}). HikariCP drops connections that
 * fail with a connection error and opens new ones, so reads succeed again once the database is back.
 *
 * <p>While the pool holds no connection at all (each was lost in an outage), a borrower opens one of its own instead,
 * for the caller to close, at most {@link #OWN_CONNECTIONS} at once and within the pool's time-out: HikariCP opens
 * connections again only after a back-off that doubles up to 5 s while the database is away, so after an outage of a
 * few seconds reads and the probe waited for it about 2 s after the database accepted connections again; these go as
 * soon as it does.
 */
final class PooledConnections implements ReadConnections {
    /** Connections of their own open at once while the pool holds none (a read and the probe, say). */
    static final int OWN_CONNECTIONS = 2;

    private static final Logger log = LoggerFactory.getLogger(PooledConnections.class);

    private final HikariDataSource pool;
    private final ConnectionFactory factory;
    private final Duration poolTimeout;
    private final Semaphore ownConnections = new Semaphore(OWN_CONNECTIONS);

    PooledConnections(HikariDataSource pool, ConnectionFactory factory, Duration poolTimeout) {
        this.pool = pool;
        this.factory = factory;
        this.poolTimeout = poolTimeout;
    }

    /**
     * How many lanes of the {@link PostgresWriter} commit at once: up to {@link PostgresWriter#MAX_LANES}, leaving the
     * pool at least one connection for reads and the readiness probe and one for large values.
     */
    static int writerLanes(PostgresStorageConfig config) {
        return Math.min(PostgresWriter.MAX_LANES, config.poolSize() - 2);
    }

    /** The pool for {@code config}: the connections the lanes do not own, timed out and initialised as it says. */
    static HikariConfig hikariConfig(PostgresStorageConfig config) {
        HikariConfig hikari = new HikariConfig();
        hikari.setPoolName("store-" + config.table());
        hikari.setDriverClassName("org.postgresql.Driver");
        hikari.setJdbcUrl(config.jdbcUrl());
        hikari.setDataSourceProperties(config.driverProperties());
        hikari.setMaximumPoolSize(config.poolSize() - writerLanes(config));
        hikari.setMinimumIdle(1); // the database is shared by many servers: open connections only when used
        long poolTimeout = config.poolTimeout().toMillis();
        hikari.setConnectionTimeout(poolTimeout);
        hikari.setValidationTimeout(Math.max(250, poolTimeout / 2));
        hikari.setInitializationFailTimeout(-1); // PostgresEngine checked the database itself, with the driver's message
        hikari.setAutoCommit(true);
        hikari.setConnectionInitSql(ConnectionFactory.initSql(config));
        return hikari;
    }

    /**
     * The message and, if it has one, the cause's: HikariCP's "Connection is not available, request timed out"
     * carries the driver's own reason (a refused connection, a failed login) only as its cause.
     */
    static String withCause(SQLException e) {
        Throwable cause = e.getCause();
        return cause == null || cause.getMessage() == null ? e.getMessage() : e.getMessage() + ": " + cause.getMessage();
    }

    /** The pool's size: the connections it may hold at once. */
    int size() {
        return pool.getMaximumPoolSize();
    }

    @Override
    public String describe(SQLException failure) {
        return withCause(failure);
    }

    @Override
    public Connection acquire() throws SQLException {
        return borrow();
    }

    /** A connection from the pool, or, while the pool holds none, one of its own (see the class description). */
    Connection borrow() throws SQLException {
        HikariPoolMXBean state = pool.getHikariPoolMXBean();
        if (state != null && state.getTotalConnections() == 0 && ownConnections.tryAcquire()) {
            try {
                return releasingOnClose(factory.open(poolTimeout));
            } catch (SQLException | RuntimeException e) {
                ownConnections.release();
                throw e;
            }
        }
        return pool.getConnection();
    }

    /** Borrowed per try, closed (given back) after it: for the large values, on their callers' threads. */
    WriteConnections forWrites() {
        return new WriteConnections() {
            @Override
            public Connection get() throws SQLException {
                return borrow();
            }

            @Override
            public void done(Connection connection, boolean broken) {
                release(connection, broken);
            }
        };
    }

    /** {@code connection}, which gives back its place among {@link #OWN_CONNECTIONS} when closed. */
    private Connection releasingOnClose(Connection connection) {
        AtomicBoolean released = new AtomicBoolean();
        return (Connection) Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (proxy, method, arguments) -> {
                    if (method.getName().equals("close") && method.getParameterCount() == 0
                            && released.compareAndSet(false, true)) {
                        ownConnections.release();
                    }
                    try {
                        return method.invoke(connection, arguments);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Override
    public void release(Connection connection, boolean broken) {
        try {
            connection.close(); // back to the pool; Hikari itself evicts connections that failed
        } catch (SQLException e) {
            log.debug("Returning a connection to the pool failed", e);
        }
    }

    @Override
    public void close() {
        pool.close();
    }
}
