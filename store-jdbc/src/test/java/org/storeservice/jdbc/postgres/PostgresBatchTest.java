package org.storeservice.jdbc.postgres;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;
import org.storeservice.api.storage.StoredEntry;
import org.storeservice.jdbc.TestPostgres;
import org.storeservice.jdbc.internal.SpoolMemory;
import org.storeservice.jdbc.internal.SpooledContent;
import org.storeservice.jdbc.internal.Sql;
import org.storeservice.jdbc.internal.TableName;
import org.storeservice.jdbc.internal.WriteRequest;

/**
 * One {@link PostgresBatch} on a real PostgreSQL, with the writes of a batch chosen by the test (the lanes form
 * batches by timing, which a test cannot choose): each write is answered as if the writes had run one after another.
 */
class PostgresBatchTest {
    @RegisterExtension
    static final TestPostgres postgres = new TestPostgres();
    private static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.MICROS);

    private TableName table;
    private PostgresBatch batch;

    @BeforeEach
    void createTable() throws Exception {
        String name = "batch_" + Long.toHexString(System.nanoTime());
        Storages.open(postgres.uri(name)).close(); // creates the table
        table = TableName.parse(postgres.schema() + "." + name);
        batch = new PostgresBatch(table, new Sql(table), new PostgresDialect(), new CommitRows(table));
    }

    @Test
    void twoUpsertsOfOneKeyLeaveTheLaterValueAndAreBothAnsweredWritten() throws Exception {
        List<Boolean> results = commit(List.of(text("k", "first", OverwritePolicy.REPLACE)),
                List.of(text("k", "second", OverwritePolicy.REPLACE)), List.of(text("j", "other", OverwritePolicy.REPLACE)));

        assertEquals(List.of(true, true, true), results);
        assertEquals("second", read("k").orElseThrow().text());
        assertEquals("other", read("j").orElseThrow().text());
    }

    @Test
    void insertsIfAbsentAnswerEachWriteAsIfOneAfterAnother() throws Exception {
        commit(List.of(text("present", "old", OverwritePolicy.REPLACE)));

        List<Boolean> results = commit(List.of(text("absent", "first", OverwritePolicy.REJECT)),
                List.of(text("present", "refused", OverwritePolicy.REJECT)),
                List.of(text("absent", "second", OverwritePolicy.REJECT)));

        assertEquals(List.of(true, false, false), results);
        assertEquals("first", read("absent").orElseThrow().text());
        assertEquals("old", read("present").orElseThrow().text());
    }

    @Test
    void runsOfDifferentKindsKeepTheirOrder() throws Exception {
        List<Boolean> results = commit(List.of(text("k", "a", OverwritePolicy.REJECT)),
                List.of(text("k", "b", OverwritePolicy.REPLACE)),
                List.of(WriteRequest.deletion("k")),
                List.of(WriteRequest.deletion("k")),
                List.of(text("k", "c", OverwritePolicy.REJECT)),
                List.of(text("k", "d", OverwritePolicy.REJECT)));

        assertEquals(List.of(true, true, true, false, true, false), results);
        assertEquals("c", read("k").orElseThrow().text());
    }

    @Test
    void largeValuesTextWithNulAndSmallValuesCommitTogether(@TempDir Path spool) throws Exception {
        byte[] large = new byte[300_000];
        for (int i = 0; i < large.length; i++) {
            large[i] = (byte) (i * 31);
        }
        Path file = spool.resolve("large");
        Files.write(file, large);
        SpooledContent spooled = SpooledContent.read(Files.newInputStream(file), spool, large.length,
                new SpoolMemory(0));
        assertTrue(!spooled.inMemory(), "the test means a value spooled to a file");

        List<Boolean> results = commit(List.of(bytes("small", new byte[] {1, 2, 3})),
                List.of(new WriteRequest("large", EntryKind.BYTES, null, spooled, OverwritePolicy.REPLACE, NOW)),
                List.of(new WriteRequest("nul", EntryKind.TEXT, null,
                        SpooledContent.inMemory("a\u0000b".getBytes(StandardCharsets.UTF_8)), OverwritePolicy.REPLACE, NOW)),
                List.of(bytes("empty", new byte[0])));
        spooled.close();

        assertEquals(List.of(true, true, true, true), results);
        assertArrayEquals(new byte[] {1, 2, 3}, read("small").orElseThrow().bytes());
        assertArrayEquals(large, read("large").orElseThrow().bytes());
        assertEquals("a\u0000b", read("nul").orElseThrow().text());
        assertEquals(0, read("empty").orElseThrow().bytes().length);
        assertEquals(NOW, read("small").orElseThrow().writtenAt(), "the time of each write, to the microsecond");
    }

    @Test
    void aGroupIsWrittenOnlyIfEveryWriteOfItIs() throws Exception {
        commit(List.of(text("taken", "old", OverwritePolicy.REPLACE)));

        List<Boolean> results = commit(List.of(text("a", "1", OverwritePolicy.REJECT),
                text("taken", "2", OverwritePolicy.REJECT)), List.of(text("b", "3", OverwritePolicy.REPLACE)));

        assertEquals(List.of(false, true), results);
    }

    @Test
    void aRefusedBatchStoresNothing() throws Exception {
        commit(List.of(text("kept", "before", OverwritePolicy.REPLACE)));
        try (Connection connection = postgres.connection()) {
            connection.createStatement().execute("ALTER TABLE " + table.qualified()
                    + " ADD CONSTRAINT no_bad_key CHECK (key <> 'bad')");
        }
        List<List<WriteRequest>> groups = new ArrayList<>();
        groups.add(List.of(text("kept", "replaced", OverwritePolicy.REPLACE)));
        groups.add(List.of(text("bad", "x", OverwritePolicy.REJECT))); // a second run: a transaction, rolled back
        try (Connection connection = postgres.connection()) {
            SQLException refused = assertThrows(SQLException.class, () -> batch.commit(connection, groups, UUID.randomUUID()));
            assertTrue(refused.getMessage().contains("no_bad_key"), refused.getMessage());
            assertTrue(!PostgresFailures.transientFailure(refused), "the write's own fault, not the database's state");
        }
        assertEquals("before", read("kept").orElseThrow().text());
        assertTrue(read("bad").isEmpty());
    }

    @SafeVarargs
    @SuppressWarnings("varargs") // the array goes only to List.of, which copies it
    private List<Boolean> commit(List<WriteRequest>... groups) throws SQLException {
        try (Connection connection = postgres.connection()) {
            return batch.commit(connection, List.of(groups), UUID.randomUUID());
        }
    }

    private Optional<StoredEntry> read(String key) throws Exception {
        try (Storage storage = Storages.open(postgres.uri(table.table()))) {
            return storage.get(key);
        }
    }

    private static WriteRequest text(String key, String value, OverwritePolicy policy) {
        return new WriteRequest(key, EntryKind.TEXT, value, null, policy, NOW);
    }

    private static WriteRequest bytes(String key, byte[] value) {
        return new WriteRequest(key, EntryKind.BYTES, null, SpooledContent.inMemory(value), OverwritePolicy.REPLACE, NOW);
    }
}
