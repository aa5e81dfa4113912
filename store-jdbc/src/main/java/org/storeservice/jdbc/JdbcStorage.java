package org.storeservice.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.api.storage.EntryVisitor;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StorageException;
import org.storeservice.api.storage.StoredEntry;
import org.storeservice.jdbc.internal.Dialect;
import org.storeservice.jdbc.internal.Engine;
import org.storeservice.jdbc.internal.KeyOrder;
import org.storeservice.jdbc.internal.ReadConnections;
import org.storeservice.jdbc.internal.Rows;
import org.storeservice.jdbc.internal.SpoolMemory;
import org.storeservice.jdbc.internal.SpooledContent;
import org.storeservice.jdbc.internal.Sql;
import org.storeservice.jdbc.internal.TextValues;
import org.storeservice.jdbc.internal.WritePath;
import org.storeservice.jdbc.internal.WriteRequest;
import org.storeservice.jdbc.postgres.PostgresEngine;
import org.storeservice.jdbc.sqlite.SqliteEngine;

/**
 * A {@link Storage} in one SQL table, on SQLite ({@link #sqlite}) or PostgreSQL ({@link #postgres}).
 *
 * <p>Table: {@code key} (primary key), {@code key_order} (the key as UTF-16BE bytes, indexed, so scans
 * follow {@link String#compareTo} order), {@code kind} ('T' text or 'B' bytes), {@code text_value},
 * {@code bytes_value}, {@code written_at}; created on first open, its schema version recorded in
 * {@code store_schema}. A write is one {@code INSERT ... ON CONFLICT} statement, so it replaces the old
 * value atomically or leaves it as it was. A write returns only after its transaction committed.
 *
 * <p>What the SQL backends cannot hold exactly is refused with a {@link StorageException}: keys with
 * U+0000, keys and text with a lone surrogate (UTF-8 cannot encode it). Text with U+0000 is kept as
 * UTF-8 in {@code bytes_value}, still of kind text.
 *
 * <p>Thread-safe.
 *
 * <p>The two public factories and the whole {@link Storage} contract, each method a few lines over what it delegates
 * to (the {@link WritePath}, the {@link ReadConnections}, {@link Rows}).
 */
public final class JdbcStorage implements Storage {
    private final Dialect dialect;
    private final Sql sql;
    private final WritePath writes;
    private final ReadConnections reads;
    /** The largest byte value accepted. */
    private final long maxValueBytes;
    /** Where byte content longer than {@link SpooledContent#MEMORY_BYTES} is spooled; null: java.io.tmpdir. */
    private final Path spoolDirectory;
    /** The heap values waiting for the database may hold together, past their first 64 KiB each. */
    private final SpoolMemory spoolMemory;
    private final Clock clock;
    private final String description;

    private final Optional<Engine.Backup> backup;
    private volatile boolean closed;

    private JdbcStorage(Engine engine) {
        this.spoolMemory = new SpoolMemory(engine.spoolMemoryBytes());
        this.dialect = engine.dialect();
        this.sql = engine.sql();
        this.writes = engine.writes();
        this.reads = engine.reads();
        this.maxValueBytes = engine.maxValueBytes();
        this.spoolDirectory = engine.spoolDirectory();
        this.backup = engine.backup();
        this.clock = Clock.systemUTC();
        this.description = engine.description();
    }

    /**
     * Opens (creating if absent) the SQLite database {@code config.path()} in WAL mode, with one
     * group-committing writer and separate read connections.
     */
    public static JdbcStorage sqlite(SqliteStorageConfig config) throws IOException {
        return new JdbcStorage(SqliteEngine.open(config));
    }

    /**
     * Connects to the PostgreSQL database of {@code config} once, creating the table if absent, then opens a pool.
     *
     * @throws StorageException if the database cannot be reached or refuses the login, with the driver's own
     *     message (a wrong password, a refused connection), at once rather than after the pool's time-out
     */
    public static JdbcStorage postgres(PostgresStorageConfig config) throws IOException {
        return new JdbcStorage(PostgresEngine.open(config, SpoolMemory.defaultBytes()));
    }

    /** A storage over {@code engine}'s parts; for the engines' tests, which open it with settings of their own. */
    static JdbcStorage of(Engine engine) {
        return new JdbcStorage(engine);
    }

    @Override
    public boolean putText(String key, String value, OverwritePolicy policy) throws IOException {
        return writes.write(textWrite(key, value, policy));
    }

    /**
     * Queued to the writer (SQLite's one thread, PostgreSQL's lanes), and completed by it once committed, so no
     * thread waits for the write. A queued value holds heap until it is answered, for as long as the database is away
     * (the failover time-out): it reserves its size from the spool memory, as a queued byte value does, and when that
     * is full the write is made on {@code blockingWork} instead, holding that thread: the executor's size then bounds
     * what waits.
     */
    @Override
    public CompletionStage<Boolean> putTextAsync(String key, String value, OverwritePolicy policy,
            Executor blockingWork) {
        WriteRequest request;
        try {
            request = textWrite(key, value, policy);
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        long held = heapBytes(value);
        if (!spoolMemory.tryReserve(held)) {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return writes.write(request);
                } catch (IOException e) {
                    throw new CompletionException(e);
                }
            }, blockingWork).minimalCompletionStage();
        }
        try {
            return writes.writeAsync(request, blockingWork).whenComplete((stored, failure) -> spoolMemory.release(held))
                    .minimalCompletionStage();
        } catch (RuntimeException e) {
            spoolMemory.release(held);
            return CompletableFuture.failedFuture(e);
        }
    }

    /** The heap a queued text value holds, at most: two bytes a char, and its UTF-8 copy for one with U+0000. */
    private static long heapBytes(String value) {
        return 2L * value.length() + (TextValues.needsBytesColumn(value) ? 3L * value.length() : 0);
    }

    private WriteRequest textWrite(String key, String value, OverwritePolicy policy) throws IOException {
        ensureOpen();
        TextValues.checkKey(key);
        TextValues.checkText(value);
        boolean inBytes = TextValues.needsBytesColumn(value);
        return new WriteRequest(key, EntryKind.TEXT, inBytes ? null : value,
                inBytes ? SpooledContent.inMemory(TextValues.utf8(value)) : null, policy, now());
    }

    @Override
    public boolean putBytes(String key, InputStream content, OverwritePolicy policy) throws IOException {
        ensureOpen();
        TextValues.checkKey(key);
        // Read to its end before it is queued (SQLite) or a pooled connection is borrowed (PostgreSQL), 64 KiB in
        // memory, the rest in a temporary file deleted when the write is answered: see SpooledContent. A failure
        // of the caller's stream surfaces here, unchanged, and nothing is written.
        try (SpooledContent spooled = SpooledContent.read(content, spoolDirectory, maxValueBytes, spoolMemory)) {
            return writes.write(new WriteRequest(key, EntryKind.BYTES, null, spooled, policy, now()));
        }
    }

    /**
     * A value of at most 64 KiB is read here and queued to the writer (SQLite's one thread, PostgreSQL's lanes), which
     * completes the stage once it is committed, so no thread waits for the write; such values hold heap only within
     * the spool's memory. A larger value, or one finding that memory full, is read and written on {@code blockingWork}
     * as {@link #putBytes} does it, holding that thread until it is committed.
     */
    @Override
    public CompletionStage<Boolean> putBytesAsync(String key, InputStream content, OverwritePolicy policy,
            Executor blockingWork) {
        byte[] head;
        SpooledContent value;
        try {
            ensureOpen();
            TextValues.checkKey(key);
            head = SpooledContent.readHead(content); // the caller's content is in memory if this thread must not block
            value = SpooledContent.whole(head, maxValueBytes, spoolMemory);
        } catch (IOException | RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        if (value == null) {
            return CompletableFuture.supplyAsync(() -> {
                try (SpooledContent spooled = SpooledContent.read(head, content, spoolDirectory, maxValueBytes, spoolMemory)) {
                    return writes.write(new WriteRequest(key, EntryKind.BYTES, null, spooled, policy, now()));
                } catch (IOException e) {
                    throw new CompletionException(e);
                }
            }, blockingWork);
        }
        CompletableFuture<Boolean> written;
        try {
            written = writes.writeAsync(new WriteRequest(key, EntryKind.BYTES, null, value, policy, now()), blockingWork);
        } catch (RuntimeException e) {
            value.close();
            return CompletableFuture.failedFuture(e);
        }
        return written.whenComplete((stored, failure) -> value.close()).minimalCompletionStage();
    }

    /**
     * Writes all of {@code entries} in one transaction (SQLite: one item of the writer's queue, committed with the
     * writes pending beside it; PostgreSQL: one item of the lanes' queue, one transaction), so that they are stored all
     * or none.
     * Every entry is checked before anything is written: one the backend cannot hold fails the call, naming no
     * value, and nothing of it is stored.
     */
    @Override
    public void putAll(List<StoredEntry> entries) throws IOException {
        ensureOpen();
        Instant writtenAt = now();
        List<WriteRequest> requests = new ArrayList<>(entries.size());
        for (StoredEntry entry : entries) {
            TextValues.checkKey(entry.key());
            if (entry.kind() == EntryKind.TEXT) {
                String text = entry.text();
                TextValues.checkText(text);
                boolean inBytes = TextValues.needsBytesColumn(text);
                requests.add(new WriteRequest(entry.key(), EntryKind.TEXT, inBytes ? null : text,
                        inBytes ? SpooledContent.inMemory(TextValues.utf8(text)) : null, OverwritePolicy.REPLACE,
                        writtenAt));
            } else {
                byte[] bytes = entry.bytes();
                if (bytes.length > maxValueBytes) {
                    throw new StorageException("Content exceeds this storage's limit of " + maxValueBytes + " bytes");
                }
                requests.add(new WriteRequest(entry.key(), EntryKind.BYTES, null, SpooledContent.inMemory(bytes),
                        OverwritePolicy.REPLACE, writtenAt));
            }
        }
        if (!requests.isEmpty()) {
            writes.writeAll(requests);
        }
    }

    /**
     * Deletes through the write path, so that on SQLite the deletion queues with the writes and commits in their
     * group. A key the backend could never have stored (U+0000, a lone surrogate) has no row: nothing to delete, and
     * binding it would encode it altered (a lone surrogate as '?'), naming another key.
     */
    @Override
    public boolean delete(String key) throws IOException {
        ensureOpen();
        try {
            TextValues.checkKey(key);
        } catch (StorageException e) {
            return false;
        }
        return writes.delete(key);
    }

    /**
     * A read (the connections for reads work), then the write path's own check: SQLite's writer is running;
     * PostgreSQL commits a one-row update, so that readiness means that a write would commit now, not only that the
     * database answers reads (a new primary does before it commits, while it waits for a synchronous standby).
     */
    @Override
    public void checkWritable() throws IOException {
        Storage.super.checkWritable();
        writes.checkWritable();
    }

    /**
     * SQLite only: writes a consistent copy of the database to {@code target} while the storage serves ({@code VACUUM
     * INTO}, on a connection of its own: one read transaction, so the copy holds exactly the writes committed before it
     * began, which includes every write acknowledged by then, and no write waits for it). The copy is a plain SQLite
     * file that {@link #sqlite} opens as it is. A copy that fails is deleted.
     *
     * @throws StorageException for PostgreSQL (whose own tools, pg_dump and pg_basebackup, make backups), if
     *     {@code target} exists, or if the copy fails
     */
    public void backupTo(Path target) throws IOException {
        ensureOpen();
        if (backup.isEmpty()) {
            throw new StorageException("backup copies SQLite storage only; for PostgreSQL use pg_dump (a logical copy)"
                    + " or pg_basebackup with WAL archiving (point-in-time recovery)");
        }
        Path absolute = target.toAbsolutePath();
        if (Files.exists(absolute)) {
            throw new StorageException("Will not overwrite " + absolute + ": name a file that does not exist");
        }
        try {
            backup.get().copyTo(absolute);
        } catch (SQLException e) {
            Files.deleteIfExists(absolute);
            throw new StorageException("Backup of " + description + " to " + absolute + " failed: " + e.getMessage(), e);
        }
    }

    /** The heap that byte values waiting for the database hold now, past what each caller holds; for tests. */
    long spoolMemoryReserved() {
        return spoolMemory.reserved();
    }

    /** Whether writes commit: {@code false} from a failed attempt (PostgreSQL away) until one succeeds again. */
    boolean writesCommitting() {
        return writes.committing();
    }

    /** Microseconds: the finest both PostgreSQL and the SQLite column keep, so a write reads back equal. */
    private Instant now() {
        return clock.instant().truncatedTo(ChronoUnit.MICROS);
    }

    @Override
    public Optional<StoredEntry> get(String key) throws IOException {
        ensureOpen();
        Connection connection = acquire();
        boolean broken = true;
        try (PreparedStatement statement = connection.prepareStatement(sql.get)) {
            statement.setString(1, key);
            try (ResultSet row = statement.executeQuery()) {
                Optional<StoredEntry> entry = row.next() ? Optional.of(Rows.read(row, dialect)) : Optional.empty();
                broken = false;
                return entry;
            }
        } catch (SQLException e) {
            throw new StorageException("Read from " + dialect.name() + " failed: " + e.getMessage(), e);
        } finally {
            reads.release(connection, broken);
        }
    }

    @Override
    public void scan(String keyPrefix, EntryVisitor visitor) throws IOException {
        ensureOpen();
        byte[] from = KeyOrder.of(keyPrefix);
        byte[] to = KeyOrder.successor(from);
        String query = keyPrefix.isEmpty() ? sql.scanAll : to == null ? sql.scanFrom : sql.scanRange;
        Connection connection = acquire();
        boolean broken = true;
        boolean cursor = dialect.scanFetchSize() > 0;
        try {
            if (cursor) {
                connection.setAutoCommit(false); // pgjdbc streams with a cursor only inside a transaction
            }
            try (PreparedStatement statement = connection.prepareStatement(query)) {
                statement.setFetchSize(dialect.scanFetchSize());
                if (!keyPrefix.isEmpty()) {
                    statement.setBytes(1, from);
                    if (to != null) {
                        statement.setBytes(2, to);
                    }
                }
                try (ResultSet rows = statement.executeQuery()) {
                    while (rows.next()) {
                        visitor.visit(Rows.read(rows, dialect));
                    }
                }
            }
            if (cursor) {
                connection.rollback(); // read only: nothing to keep
                connection.setAutoCommit(true);
            }
            broken = false;
        } catch (SQLException e) {
            throw new StorageException("Scan of " + dialect.name() + " failed: " + e.getMessage(), e);
        } finally {
            if (broken && cursor) {
                endQuietly(connection);
            }
            reads.release(connection, broken);
        }
    }

    private Connection acquire() throws StorageException {
        try {
            return reads.acquire();
        } catch (SQLException e) {
            throw new StorageException("No connection to " + dialect.name() + ": " + reads.describe(e), e);
        }
    }

    /** Ends the scan's transaction after a failure (also a visitor's), so the connection can be reused. */
    private static void endQuietly(Connection connection) {
        try {
            connection.rollback();
            connection.setAutoCommit(true);
        } catch (SQLException e) {
            // the connection is released as broken anyway
        }
    }

    private void ensureOpen() throws StorageException {
        if (closed) {
            throw new StorageException("Storage is closed: " + description);
        }
    }

    /** Answers the writes in flight, then closes every connection. Closing twice is harmless. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        writes.close();
        reads.close();
    }

    @Override
    public String toString() {
        return "JdbcStorage{" + description + '}';
    }
}
