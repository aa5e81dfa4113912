package org.storeservice.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;
import org.storeservice.jdbc.FaultProxy.Fault;

/**
 * Every acknowledged write takes effect exactly once, whatever becomes of its commit's answer: the storage reaches
 * PostgreSQL through a {@link FaultProxy} that drops the answer after the commit, cuts the connection before the
 * statement arrives, or stalls the answer; right after the fault, another storage (another server) writes the same key
 * and is acknowledged; then the first write is answered. A trigger records every row version, and the history must
 * hold each acknowledged write exactly once, with no value coming back after a later one.
 */
@Timeout(120)
class PostgresExactlyOnceTest {
    @RegisterExtension
    static final TestPostgres postgres = new TestPostgres();
    private static final AtomicInteger tables = new AtomicInteger();

    private FaultProxy proxy;
    private Storage viaProxy;
    private Storage direct;
    private String table;

    @BeforeEach
    void open() throws Exception {
        table = "exactly_once_" + tables.incrementAndGet();
        direct = Storages.open(postgres.uri(table));
        try (Connection connection = postgres.connection(); Statement statement = connection.createStatement()) {
            String qualified = postgres.schema() + "." + table;
            statement.execute("CREATE TABLE " + qualified + "_history (seq bigserial PRIMARY KEY, op text, key text,"
                    + " text_value text)");
            statement.execute("CREATE FUNCTION " + qualified + "_record() RETURNS trigger AS $$ BEGIN"
                    + " IF TG_OP = 'DELETE' THEN INSERT INTO " + qualified + "_history (op, key, text_value)"
                    + " VALUES ('delete', OLD.key, OLD.text_value);"
                    + " ELSE INSERT INTO " + qualified + "_history (op, key, text_value)"
                    + " VALUES (lower(TG_OP), NEW.key, NEW.text_value); END IF; RETURN NULL; END $$ LANGUAGE plpgsql");
            statement.execute("CREATE TRIGGER record AFTER INSERT OR UPDATE OR DELETE ON " + qualified
                    + " FOR EACH ROW EXECUTE FUNCTION " + qualified + "_record()");
        }
        proxy = new FaultProxy(postgres.host(), postgres.port());
        // Every statement as text, so that the proxy recognises it; a short socket time-out, so that a stalled answer
        // is given up on soon; the failover time-out far beyond what a test waits.
        viaProxy = Storages.open(postgres.uriVia("127.0.0.1", proxy.port(), table,
                "prepareThreshold=0&socketTimeoutMillis=1500&statementTimeoutMillis=1000&failoverTimeoutMillis=60000"));
    }

    @AfterEach
    void close() throws Exception {
        proxy.release();
        viaProxy.close();
        direct.close();
        proxy.close();
    }

    /** Which statement's exchange gets the fault: a batch of upserts commits in its one statement, others in COMMIT. */
    private static final String UPSERT_STATEMENT = "WITH commit_row AS";
    private static final String COMMIT = "COMMIT";

    @ParameterizedTest
    @EnumSource(value = Fault.class, names = {"DROP_ANSWER", "CUT_BEFORE", "STALL_ANSWER", "RESET_MID_ANSWER"})
    void aReplaceWhoseAnswerIsLostTakesEffectOnce(Fault fault) throws Exception {
        proxy.arm(fault, UPSERT_STATEMENT, true);
        CompletableFuture<Boolean> first = CompletableFuture.supplyAsync(() -> put(viaProxy, "k", "a",
                OverwritePolicy.REPLACE));
        assertTrue(proxy.awaitFired(30), "the fault fired");
        assertTrue(direct.putText("k", "b", OverwritePolicy.REPLACE), "the other server's write");
        proxy.release();

        assertTrue(first.get(60, TimeUnit.SECONDS), "the first write is answered Success");
        List<String> history = history("k");
        if (fault == Fault.CUT_BEFORE) {
            // Nothing reached the server: found out, then written once, after the other server's write.
            assertEquals(List.of("insert b", "update a"), history);
        } else {
            assertEquals(List.of("insert a", "update b"), history, "committed once, never written again");
        }
    }

    @ParameterizedTest
    @EnumSource(value = Fault.class, names = {"DROP_ANSWER", "STALL_ANSWER"})
    void anInsertIfAbsentWhoseCommitAnswerIsLostIsAnsweredAsItsCommitDecided(Fault fault) throws Exception {
        proxy.arm(fault, COMMIT, true);
        CompletableFuture<Boolean> inserted = CompletableFuture.supplyAsync(() -> put(viaProxy, "new", "a",
                OverwritePolicy.REJECT));
        assertTrue(proxy.awaitFired(30));
        assertTrue(direct.putText("new", "b", OverwritePolicy.REPLACE));
        proxy.release();
        assertTrue(inserted.get(60, TimeUnit.SECONDS), "it inserted the absent key: Success, not Error");
        assertEquals(List.of("insert a", "update b"), history("new"));

        direct.putText("taken", "x", OverwritePolicy.REPLACE);
        proxy.arm(fault, COMMIT, false);
        CompletableFuture<Boolean> refused = CompletableFuture.supplyAsync(() -> put(viaProxy, "taken", "a",
                OverwritePolicy.REJECT));
        assertTrue(proxy.awaitFired(30));
        assertFalse(refused.get(60, TimeUnit.SECONDS), "it found the key taken, and says so");
        assertEquals(List.of("insert x"), history("taken"));
    }

    @ParameterizedTest
    @EnumSource(value = Fault.class, names = {"DROP_ANSWER", "STALL_ANSWER"})
    void aDeletionWhoseCommitAnswerIsLostIsNotRepeated(Fault fault) throws Exception {
        direct.putText("gone", "x", OverwritePolicy.REPLACE);
        proxy.arm(fault, COMMIT, true);
        CompletableFuture<Boolean> deleted = CompletableFuture.supplyAsync(() -> {
            try {
                return viaProxy.delete("gone");
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(proxy.awaitFired(30));
        assertTrue(direct.putText("gone", "b", OverwritePolicy.REPLACE));
        proxy.release();
        assertTrue(deleted.get(60, TimeUnit.SECONDS), "it deleted the entry");
        assertEquals(List.of("insert x", "delete x", "insert b"), history("gone"), "b, written after, stays");
        assertEquals("b", direct.get("gone").orElseThrow().text());
    }

    @ParameterizedTest
    @EnumSource(value = Fault.class, names = {"DROP_ANSWER", "CUT_BEFORE", "STALL_ANSWER", "RESET_MID_ANSWER"})
    void aLargeValueWhoseCommitAnswerIsLostTakesEffectOnce(Fault fault) throws Exception {
        byte[] large = new byte[300 * 1024]; // over the arrays' limit: a statement and a transaction of its own
        large[0] = 1;
        proxy.arm(fault, COMMIT, true);
        CompletableFuture<Boolean> first = CompletableFuture.supplyAsync(() -> {
            try {
                return viaProxy.putBytes("big", new ByteArrayInputStream(large), OverwritePolicy.REPLACE);
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        assertTrue(proxy.awaitFired(30));
        assertTrue(direct.putText("big", "b", OverwritePolicy.REPLACE));
        proxy.release();
        assertTrue(first.get(60, TimeUnit.SECONDS));
        List<String> history = history("big");
        if (fault == Fault.CUT_BEFORE) {
            assertEquals(List.of("insert b", "update null"), history);
        } else {
            assertEquals(List.of("insert null", "update b"), history);
        }
    }

    private static boolean put(Storage storage, String key, String value, OverwritePolicy policy) {
        try {
            return storage.putText(key, value, policy);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Every version of {@code key}'s row, in order: "insert a", "update b", "delete b". */
    private List<String> history(String key) throws Exception {
        List<String> versions = new ArrayList<>();
        try (Connection connection = postgres.connection(); Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery("SELECT op, text_value FROM " + postgres.schema() + "." + table
                        + "_history WHERE key = '" + key + "' ORDER BY seq")) {
            while (rows.next()) {
                versions.add(rows.getString(1) + " " + rows.getString(2));
            }
        }
        return versions;
    }
}
