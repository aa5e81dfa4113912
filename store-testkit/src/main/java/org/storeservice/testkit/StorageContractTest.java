package org.storeservice.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StoredEntry;

/**
 * The {@link Storage} contract as JUnit 5 tests. Extend it, implement {@link #openStorage()} (and, for a
 * backend that keeps data across close, {@link #reopenStorage()}), and every test here runs against your
 * backend: round trips of text and bytes, overwrites, the REJECT policy, concurrent writers, a failing
 * content stream, scan order and prefixes, close and reopen.
 *
 * <p>Each test opens one storage before it runs and closes it after; the subclass decides where its
 * data lives (a temporary directory, a table of its own) and removes it afterwards.
 *
 * <p>The rules are those the {@link Storage} interface states, numbered as there; each test's display name says
 * which rule it checks, so a failure names the rule it broke.
 */
public abstract class StorageContractTest {
    /** A value larger than any single read or network buffer, to catch partial writes. */
    protected static final int LARGE_VALUE_BYTES = 10 * 1024 * 1024;

    private final List<Storage> opened = new ArrayList<>();
    /** The storage under test, opened by {@link #openStorage()} before each test. */
    protected Storage storage;

    /** For subclasses. */
    protected StorageContractTest() {
    }

    /** A new, empty storage for one test. Called once per test, before it runs. */
    protected abstract Storage openStorage() throws Exception;

    /**
     * Opens the data of the storage last returned by {@link #openStorage()} again, after that one was
     * closed; or empty if the backend keeps nothing across close (in-memory). Durable backends override it.
     */
    protected Optional<Storage> reopenStorage() throws Exception {
        return Optional.empty();
    }

    /** How many threads the concurrency tests use, and how many writes each makes. Override to scale. */
    protected int concurrentWriters() {
        return 8;
    }

    protected int writesPerWriter() {
        return 20;
    }

    @BeforeEach
    final void openStorageUnderTest() throws Exception {
        storage = track(openStorage());
    }

    @AfterEach
    final void closeStorages() throws IOException {
        for (Storage s : opened) {
            s.close();
        }
        opened.clear();
    }

    private Storage track(Storage s) {
        assertNotNull(s, "openStorage() returned null");
        opened.add(s);
        return s;
    }

    // ---- round trips -------------------------------------------------------------------------------

    @Test
    @DisplayName("rule 1: an absent key has no entry")
    void absentKeyHasNoEntry() throws IOException {
        assertEquals(Optional.empty(), storage.get("absent"));
    }

    @Test
    @DisplayName("rule 1: text round-trips exactly")
    void textRoundTripsExactly() throws IOException {
        List<String> values = List.of(
                "",
                "hello",
                "caf\u00e9 \u00fcber \u00df",
                "\u05e9\u05dc\u05d5\u05dd \u0645\u0631\u062d\u0628\u0627 \u202bmixed RTL\u202c",
                "astral: \ud83d\ude00 \ud834\udd1e \ud840\udc00",
                "\u0000 NUL inside \u0000 text",
                "<xml attr=\"&amp;\"/>\r\n\ttabs and CRLF",
                "\ufeffBOM and \uffff and \ue000");
        Instant before = Instant.now();
        for (int i = 0; i < values.size(); i++) {
            assertTrue(storage.putText("text/" + i, values.get(i), OverwritePolicy.REPLACE));
        }
        Instant after = Instant.now();
        for (int i = 0; i < values.size(); i++) {
            StoredEntry entry = storage.get("text/" + i).orElseThrow();
            assertEquals(EntryKind.TEXT, entry.kind());
            assertEquals(values.get(i), entry.text(), "value " + i);
            assertEquals("text/" + i, entry.key());
            assertWrittenBetween(entry, before, after);
        }
    }

    @Test
    @DisplayName("rule 1: bytes round-trip exactly")
    void bytesRoundTripExactly() throws IOException {
        byte[] everyByte = new byte[256];
        for (int i = 0; i < everyByte.length; i++) {
            everyByte[i] = (byte) i;
        }
        List<byte[]> values = List.of(new byte[0], new byte[] {0}, new byte[] {0, 0, 0}, everyByte,
                "not UTF-8: \u00e9".getBytes(StandardCharsets.ISO_8859_1));
        Instant before = Instant.now();
        for (int i = 0; i < values.size(); i++) {
            assertTrue(storage.putBytes("bytes/" + i, new ByteArrayInputStream(values.get(i)), OverwritePolicy.REPLACE));
        }
        Instant after = Instant.now();
        for (int i = 0; i < values.size(); i++) {
            StoredEntry entry = storage.get("bytes/" + i).orElseThrow();
            assertEquals(EntryKind.BYTES, entry.kind());
            assertArrayEquals(values.get(i), entry.bytes(), "value " + i);
            assertWrittenBetween(entry, before, after);
        }
    }

    @Test
    @DisplayName("rule 1: large values round-trip exactly")
    void largeValuesRoundTrip() throws IOException {
        byte[] large = randomBytes(LARGE_VALUE_BYTES, 1);
        assertTrue(storage.putBytes("large/bytes", new ByteArrayInputStream(large), OverwritePolicy.REPLACE));
        assertArrayEquals(large, storage.get("large/bytes").orElseThrow().bytes());

        String text = "\u00e9\ud83d\ude00x".repeat(LARGE_VALUE_BYTES / 7); // about 10 MiB of UTF-8
        assertTrue(storage.putText("large/text", text, OverwritePolicy.REPLACE));
        assertEquals(text, storage.get("large/text").orElseThrow().text());
    }

    @Test
    @DisplayName("rule 1: long Unicode keys round-trip exactly")
    void longUnicodeKeysRoundTrip() throws IOException {
        String key = "k\ud83d\ude00\u05d0/".repeat(100); // 500 UTF-16 chars, astral and RTL
        assertTrue(storage.putText(key, "v", OverwritePolicy.REPLACE));
        assertEquals("v", storage.get(key).orElseThrow().text());
        assertEquals(key, storage.get(key).orElseThrow().key());
    }

    @Test
    @DisplayName("rule 3: putBytes reads its content to the end")
    void contentStreamIsReadToItsEnd() throws IOException {
        byte[] value = randomBytes(300_000, 2);
        InputStream trickle = new InputStream() { // returns few bytes per read, as a network stream does
            private int position;

            @Override
            public int read() {
                return position < value.length ? value[position++] & 0xFF : -1;
            }

            @Override
            public int read(byte[] buffer, int offset, int length) {
                if (position >= value.length) {
                    return -1;
                }
                int n = Math.min(Math.min(length, 777), value.length - position);
                System.arraycopy(value, position, buffer, offset, n);
                position += n;
                return n;
            }
        };
        assertTrue(storage.putBytes("trickle", trickle, OverwritePolicy.REPLACE));
        assertArrayEquals(value, storage.get("trickle").orElseThrow().bytes());
    }

    // ---- overwrites and policies -------------------------------------------------------------------

    @Test
    @DisplayName("rule 1: a rewrite replaces value and kind")
    void rewritesReplaceValueAndKind() throws IOException {
        assertTrue(storage.putText("k", "first", OverwritePolicy.REPLACE));
        assertTrue(storage.putText("k", "second", OverwritePolicy.REPLACE));
        assertEquals(StoredEntry.text("k", "second", Instant.EPOCH), storage.get("k").orElseThrow());

        assertTrue(storage.putBytes("k", new ByteArrayInputStream(new byte[] {1, 2}), OverwritePolicy.REPLACE));
        assertEquals(StoredEntry.bytes("k", new byte[] {1, 2}, Instant.EPOCH), storage.get("k").orElseThrow());

        assertTrue(storage.putText("k", "text again", OverwritePolicy.REPLACE));
        assertEquals(StoredEntry.text("k", "text again", Instant.EPOCH), storage.get("k").orElseThrow());

        assertTrue(storage.putBytes("k", new ByteArrayInputStream(new byte[0]), OverwritePolicy.REPLACE));
        assertEquals(StoredEntry.bytes("k", new byte[0], Instant.EPOCH), storage.get("k").orElseThrow());
    }

    @Test
    @DisplayName("rule 1: REJECT leaves a stored value alone")
    void rejectPolicyKeepsTheStoredValue() throws IOException {
        assertTrue(storage.putText("new-text", "a", OverwritePolicy.REJECT));
        assertTrue(storage.putBytes("new-bytes", new ByteArrayInputStream(new byte[] {7}), OverwritePolicy.REJECT));

        assertFalse(storage.putText("new-text", "b", OverwritePolicy.REJECT));
        assertFalse(storage.putBytes("new-text", new ByteArrayInputStream(new byte[] {9}), OverwritePolicy.REJECT));
        assertFalse(storage.putText("new-bytes", "c", OverwritePolicy.REJECT));

        assertEquals(StoredEntry.text("new-text", "a", Instant.EPOCH), storage.get("new-text").orElseThrow());
        assertEquals(StoredEntry.bytes("new-bytes", new byte[] {7}, Instant.EPOCH), storage.get("new-bytes").orElseThrow());
    }

    // ---- putAll (many entries at once: an import) ---------------------------------------------------

    @Test
    @DisplayName("rule 5: putAll stores every entry, the last of a key wins, and stamps its own time")
    void putAllWritesEveryEntryWithItsKindReplacingWhatWasThereAndStampsItsOwnTime() throws Exception {
        assertTrue(storage.putText("replaced", "old", OverwritePolicy.REPLACE));
        assertTrue(storage.putBytes("kind-changes", new ByteArrayInputStream(new byte[] {1}), OverwritePolicy.REPLACE));
        byte[] large = randomBytes(LARGE_VALUE_BYTES, 11);
        Instant stale = Instant.parse("2001-02-03T04:05:06Z"); // not kept: the backend stamps its own time
        List<StoredEntry> entries = new ArrayList<>(List.of(
                StoredEntry.text("replaced", "new", stale),
                StoredEntry.text("kind-changes", "now text", stale),
                StoredEntry.bytes("empty-bytes", new byte[0], stale),
                StoredEntry.text("empty-text", "", stale),
                StoredEntry.text("nul", "\u0000 inside", stale),
                StoredEntry.bytes("large", large, stale),
                StoredEntry.text("twice", "first", stale),
                StoredEntry.text("twice", "last wins", stale)));
        for (int i = 0; i < 500; i++) {
            entries.add(StoredEntry.text(String.format("many/%03d", i), "value " + i, stale));
        }
        Instant before = Instant.now();
        storage.putAll(entries);
        storage.putAll(List.of()); // nothing to do
        Instant after = Instant.now();

        assertEquals(StoredEntry.text("replaced", "new", stale), storage.get("replaced").orElseThrow());
        assertEquals(StoredEntry.text("kind-changes", "now text", stale), storage.get("kind-changes").orElseThrow());
        assertEquals(StoredEntry.bytes("empty-bytes", new byte[0], stale), storage.get("empty-bytes").orElseThrow());
        assertEquals(StoredEntry.text("empty-text", "", stale), storage.get("empty-text").orElseThrow());
        assertEquals(StoredEntry.text("nul", "\u0000 inside", stale), storage.get("nul").orElseThrow());
        assertArrayEquals(large, storage.get("large").orElseThrow().bytes());
        assertEquals("last wins", storage.get("twice").orElseThrow().text());
        List<String> many = scanKeys("many/");
        assertEquals(500, many.size());
        for (int i = 0; i < 500; i++) {
            String key = String.format("many/%03d", i);
            assertEquals(key, many.get(i));
            StoredEntry entry = storage.get(key).orElseThrow();
            assertEquals("value " + i, entry.text());
            assertWrittenBetween(entry, before, after);
        }

        storage.close();
        Optional<Storage> reopened = reopenStorage();
        if (reopened.isPresent()) { // a durable backend: the entries last
            Storage again = track(reopened.get());
            assertEquals("last wins", again.get("twice").orElseThrow().text());
            assertEquals(500, keysOf(again, "many/").size());
        }
    }

    // ---- failures ----------------------------------------------------------------------------------

    @Test
    @DisplayName("rule 3: a failing content stream stores nothing and keeps the previous value")
    void failingContentStreamStoresNothingAndKeepsThePreviousValue() throws IOException {
        assertTrue(storage.putText("kept", "previous", OverwritePolicy.REPLACE));
        for (int failAfter : new int[] {0, 1000, 200_000}) {
            IOException broken = new IOException("content broke after " + failAfter + " bytes");
            IOException thrown = assertThrows(IOException.class,
                    () -> storage.putBytes("kept", failingAfter(failAfter, broken), OverwritePolicy.REPLACE));
            assertCausedBy(broken, thrown);
            assertThrows(IOException.class,
                    () -> storage.putBytes("never", failingAfter(failAfter, broken), OverwritePolicy.REPLACE));
        }
        assertEquals(StoredEntry.text("kept", "previous", Instant.EPOCH), storage.get("kept").orElseThrow());
        assertEquals(Optional.empty(), storage.get("never"));

        // and the backend keeps serving
        assertTrue(storage.putBytes("kept", new ByteArrayInputStream(new byte[] {1}), OverwritePolicy.REPLACE));
        assertArrayEquals(new byte[] {1}, storage.get("kept").orElseThrow().bytes());
    }

    @Test
    @DisplayName("rules 1 and 3: putBytesAsync stores what putBytes stores, and a failing stream fails its stage and stores nothing")
    void putBytesAsyncKeepsTheRulesOfPutBytes() throws Exception {
        Executor blockingWork = task -> new Thread(task, "contract-blocking-work").start();
        for (int size : new int[] {0, 1000, 64 * 1024, 64 * 1024 + 1, 300_000}) {
            byte[] value = randomBytes(size, size);
            assertTrue(storage.putBytesAsync("async/" + size, new ByteArrayInputStream(value), OverwritePolicy.REPLACE,
                    blockingWork).toCompletableFuture().get(60, TimeUnit.SECONDS));
            assertArrayEquals(value, storage.get("async/" + size).orElseThrow().bytes(), "size " + size);
        }
        assertFalse(storage.putBytesAsync("async/1000", new ByteArrayInputStream(new byte[1]), OverwritePolicy.REJECT,
                blockingWork).toCompletableFuture().get(60, TimeUnit.SECONDS), "REJECT keeps a stored value");
        assertArrayEquals(randomBytes(1000, 1000), storage.get("async/1000").orElseThrow().bytes());

        assertTrue(storage.putText("async/kept", "previous", OverwritePolicy.REPLACE));
        for (int failAfter : new int[] {0, 1000, 200_000}) {
            IOException broken = new IOException("content broke after " + failAfter + " bytes");
            ExecutionException thrown = assertThrows(ExecutionException.class, () -> storage.putBytesAsync("async/kept",
                    failingAfter(failAfter, broken), OverwritePolicy.REPLACE, blockingWork).toCompletableFuture()
                    .get(60, TimeUnit.SECONDS));
            assertCausedBy(broken, thrown);
        }
        assertEquals(StoredEntry.text("async/kept", "previous", Instant.EPOCH), storage.get("async/kept").orElseThrow());
    }

    // ---- concurrency -------------------------------------------------------------------------------

    @Test
    @DisplayName("rule 2: concurrent writers to one key leave one whole value")
    void concurrentWritersToOneKeyLeaveOneWholeValue() throws Exception {
        int writers = concurrentWriters();
        int size = 64 * 1024;
        Set<String> written = new HashSet<>();
        List<Callable<Boolean>> tasks = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            for (int i = 0; i < writesPerWriter(); i++) {
                byte[] value = patterned(w * 1000 + i, size);
                written.add(Arrays.toString(Arrays.copyOf(value, 8)));
                boolean asText = (w + i) % 2 == 0;
                tasks.add(() -> asText
                        ? storage.putText("same", new String(value, StandardCharsets.ISO_8859_1), OverwritePolicy.REPLACE)
                        : storage.putBytes("same", new ByteArrayInputStream(value), OverwritePolicy.REPLACE));
            }
        }
        for (boolean stored : runConcurrently(tasks, writers)) {
            assertTrue(stored);
        }
        StoredEntry entry = storage.get("same").orElseThrow();
        byte[] value = entry.kind() == EntryKind.TEXT
                ? entry.text().getBytes(StandardCharsets.ISO_8859_1) : entry.bytes();
        assertEquals(size, value.length);
        assertTrue(written.contains(Arrays.toString(Arrays.copyOf(value, 8))), "a value that was written");
        int id = ((value[0] & 0xFF) << 24) | ((value[1] & 0xFF) << 16) | ((value[2] & 0xFF) << 8) | (value[3] & 0xFF);
        assertArrayEquals(patterned(id, size), value, "one writer's value, whole");
    }

    @Test
    @DisplayName("rule 2: concurrent writers to different keys lose nothing")
    void concurrentWritersToDifferentKeysLoseNothing() throws Exception {
        int writers = concurrentWriters();
        List<Callable<Boolean>> tasks = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            tasks.add(() -> {
                for (int i = 0; i < writesPerWriter(); i++) {
                    String key = "w" + writer + "/" + i;
                    boolean stored = i % 2 == 0
                            ? storage.putText(key, key, OverwritePolicy.REPLACE)
                            : storage.putBytes(key, new ByteArrayInputStream(key.getBytes(StandardCharsets.UTF_8)),
                                    OverwritePolicy.REPLACE);
                    if (!stored) {
                        return false;
                    }
                }
                return true;
            });
        }
        for (boolean ok : runConcurrently(tasks, writers)) {
            assertTrue(ok);
        }
        for (int w = 0; w < writers; w++) {
            for (int i = 0; i < writesPerWriter(); i++) {
                String key = "w" + w + "/" + i;
                StoredEntry entry = storage.get(key).orElseThrow(() -> new AssertionError("lost " + key));
                assertArrayEquals(key.getBytes(StandardCharsets.UTF_8), entry.bytes());
                assertEquals(i % 2 == 0 ? EntryKind.TEXT : EntryKind.BYTES, entry.kind());
            }
        }
        List<String> keys = new ArrayList<>();
        storage.scan("w", entry -> keys.add(entry.key()));
        assertEquals(writers * writesPerWriter(), keys.size());
    }

    /**
     * How many new keys the REJECT race test contests, each by every {@linkplain #concurrentWriters writer} at once.
     * A backend that checks and then puts (two steps) loses only when two writers fall between the steps, so one
     * round rarely shows it; this many show it in practically every run. Override to scale.
     */
    protected int contestedRounds() {
        return 300;
    }

    @Test
    @DisplayName("rule 2: under REJECT exactly one concurrent writer of a new key wins")
    void rejectPolicyLetsExactlyOneConcurrentWriterWin() throws Exception {
        // As many writers as cores run at once, and more only queue for them (a writer not on a core when the round
        // opens comes late, and loses without racing).
        int writers = Math.max(2, Math.min(concurrentWriters(), Runtime.getRuntime().availableProcessors()));
        int rounds = contestedRounds();
        // The writers open each round themselves: each arrives, then spins until all have, so all of them are
        // running when it opens (a latch or a barrier would wake them one by one, spreading them out and hiding
        // the race). A writer that fails ends the spinning of the others.
        java.util.concurrent.atomic.AtomicInteger arrived = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean failed = new java.util.concurrent.atomic.AtomicBoolean();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5); // a hang guard, not a speed check
        boolean[][] won = new boolean[rounds][writers];
        List<Callable<Void>> tasks = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            int writer = w;
            tasks.add(() -> {
                try {
                    for (int r = 0; r < rounds; r++) {
                        arrived.incrementAndGet();
                        while (arrived.get() < (r + 1) * writers) {
                            if (failed.get() || System.nanoTime() > deadline) {
                                throw new IllegalStateException("another writer failed, or the rounds took over 5 minutes");
                            }
                            Thread.onSpinWait();
                        }
                        won[r][writer] = storage.putText("contested/" + r, "writer " + writer, OverwritePolicy.REJECT);
                    }
                    return null;
                } catch (Exception | Error e) {
                    failed.set(true);
                    throw e;
                }
            });
        }
        runConcurrently(tasks, writers);
        List<String> broken = new ArrayList<>();
        for (int r = 0; r < rounds; r++) {
            List<Integer> winners = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                if (won[r][w]) {
                    winners.add(w);
                }
            }
            String stored = storage.get("contested/" + r).orElseThrow().text();
            if (winners.size() != 1) {
                broken.add("round " + r + ": writers " + winners + " were each told they wrote the new key");
            } else if (!stored.equals("writer " + winners.get(0))) {
                broken.add("round " + r + ": writer " + winners.get(0) + " won, but the key holds '" + stored + "'");
            }
        }
        assertEquals(List.of(), broken, broken.size() + " of " + rounds + " rounds had not exactly one winner");
    }

    // ---- scan --------------------------------------------------------------------------------------

    @Test
    @DisplayName("rule 4: scan visits the keys with a prefix in String order")
    void scanVisitsKeysWithThePrefixInStringOrder() throws IOException {
        List<String> keys = List.of("b", "a", "b/1", "b/10", "b/2", "c", "a%b", "a_b", "axb", "a%", "B",
                "\ue000", "\ud83d\ude00", "\uffff", "\uff21", "\u00e9", "", "b\ud83d\ude00", "b\ue000");
        for (String key : keys) {
            if (!key.isEmpty()) {
                assertTrue(storage.putText(key, "v:" + key, OverwritePolicy.REPLACE));
            }
        }
        List<String> all = keys.stream().filter(k -> !k.isEmpty()).sorted().toList();
        assertEquals(all, scanKeys(""));
        assertEquals(List.of("b", "b/1", "b/10", "b/2", "b\ud83d\ude00", "b\ue000"), scanKeys("b"));
        assertEquals(List.of("b/1", "b/10"), scanKeys("b/1"));
        assertEquals(List.of("a%", "a%b"), scanKeys("a%"), "% is not a wildcard");
        assertEquals(List.of("a_b"), scanKeys("a_"), "_ is not a wildcard");
        assertEquals(List.of("\ud83d\ude00"), scanKeys("\ud83d"), "a prefix may end inside a surrogate pair");
        assertEquals(List.of("\uffff"), scanKeys("\uffff"));
        assertEquals(List.of(), scanKeys("zzz"));
        assertEquals(List.of(), scanKeys("b/10/"));

        List<StoredEntry> entries = new ArrayList<>();
        storage.scan("a", entries::add);
        for (StoredEntry entry : entries) {
            assertEquals("v:" + entry.key(), entry.text());
        }
    }

    @Test
    @DisplayName("rule 4: a visitor's failure propagates and the storage keeps serving")
    void scanPropagatesTheVisitorsFailureAndKeepsServing() throws IOException {
        for (int i = 0; i < 5; i++) {
            storage.putText("s" + i, "v", OverwritePolicy.REPLACE);
        }
        IOException stop = new IOException("visitor stops");
        List<String> seen = new ArrayList<>();
        IOException thrown = assertThrows(IOException.class, () -> storage.scan("s", entry -> {
            seen.add(entry.key());
            if (seen.size() == 2) {
                throw stop;
            }
        }));
        assertSame(stop, thrown);
        assertEquals(List.of("s0", "s1"), seen);
        assertEquals(5, scanKeys("s").size());
        assertTrue(storage.putText("s9", "v", OverwritePolicy.REPLACE));
    }

    // ---- delete ------------------------------------------------------------------------------------

    @Test
    @DisplayName("rule 6: delete (optional) removes one entry and says whether there was one")
    void deleteRemovesOneEntryOfEitherKindAndSaysWhetherThereWasOne() throws Exception {
        try {
            storage.delete("never written");
        } catch (UnsupportedOperationException e) {
            Assumptions.abort("rule 6: delete is optional, and " + storage.getClass().getName() + " does not support it");
        }
        assertTrue(storage.putText("a", "text", OverwritePolicy.REPLACE));
        assertTrue(storage.putBytes("b", new ByteArrayInputStream(randomBytes(LARGE_VALUE_BYTES, 5)), OverwritePolicy.REPLACE));
        assertTrue(storage.putText("c", "kept", OverwritePolicy.REPLACE));

        assertTrue(storage.delete("a"));
        assertTrue(storage.delete("b"));
        assertFalse(storage.delete("b"), "already deleted");
        assertFalse(storage.delete("never written"));
        assertFalse(storage.delete("\ud800"), "a key no backend can store is not there");

        assertEquals(Optional.empty(), storage.get("a"));
        assertEquals(Optional.empty(), storage.get("b"));
        assertEquals(List.of("c"), scanKeys(""));
        assertTrue(storage.putText("a", "again", OverwritePolicy.REJECT), "a deleted key can be written anew");
        assertEquals("again", storage.get("a").orElseThrow().text());

        storage.close();
        assertThrows(IOException.class, () -> storage.delete("c"), "rule 7: after close(), delete throws IOException");
        Optional<Storage> reopened = reopenStorage();
        if (reopened.isPresent()) { // a durable backend: the deletion lasts
            Storage again = track(reopened.get());
            assertEquals(Optional.empty(), again.get("b"));
            assertEquals(List.of("a", "c"), keysOf(again, ""));
        }
    }

    // ---- lifecycle ---------------------------------------------------------------------------------

    @Test
    @DisplayName("rule 7: after close every call throws; a durable backend keeps its data")
    void closedStorageRefusesCallsAndReopenKeepsDurableData() throws Exception {
        assertTrue(storage.putText("t", "text", OverwritePolicy.REPLACE));
        assertTrue(storage.putBytes("b", new ByteArrayInputStream(new byte[] {0, 1, 2}), OverwritePolicy.REPLACE));
        storage.close();
        assertDoesNotThrow(storage::close, "rule 7: closing twice is harmless");
        assertThrows(IOException.class, () -> storage.putText("t", "after close", OverwritePolicy.REPLACE),
                "rule 7: after close(), putText throws IOException");
        assertThrows(IOException.class,
                () -> storage.putBytes("b", new ByteArrayInputStream(new byte[] {1}), OverwritePolicy.REPLACE),
                "rule 7: after close(), putBytes throws IOException");
        assertThrows(IOException.class, () -> storage.get("t"), "rule 7: after close(), get throws IOException");
        assertThrows(IOException.class, () -> storage.scan("", entry -> { }),
                "rule 7: after close(), scan throws IOException");
        assertThrows(IOException.class, () -> storage.putAll(List.of(StoredEntry.text("closed", "x", Instant.EPOCH))),
                "rule 7: after close(), putAll throws IOException");

        Optional<Storage> reopened = reopenStorage();
        if (reopened.isPresent()) { // a durable backend: everything written before close is there
            Storage again = track(reopened.get());
            assertEquals(StoredEntry.text("t", "text", Instant.EPOCH), again.get("t").orElseThrow());
            assertEquals(StoredEntry.bytes("b", new byte[] {0, 1, 2}, Instant.EPOCH), again.get("b").orElseThrow());
            assertEquals(List.of("b", "t"), keysOf(again, ""));
            assertTrue(again.putText("t", "rewritten", OverwritePolicy.REPLACE));
            assertEquals("rewritten", again.get("t").orElseThrow().text());
        }
    }

    // ---- helpers -----------------------------------------------------------------------------------

    /** The keys {@code scan(prefix)} visits, in the order visited. */
    protected final List<String> scanKeys(String prefix) throws IOException {
        return keysOf(storage, prefix);
    }

    private static List<String> keysOf(Storage s, String prefix) throws IOException {
        List<String> keys = new ArrayList<>();
        s.scan(prefix, entry -> keys.add(entry.key()));
        return keys;
    }

    private static void assertWrittenBetween(StoredEntry entry, Instant before, Instant after) {
        // Backends may keep a coarser clock (milliseconds, microseconds): allow one second either way.
        assertFalse(entry.writtenAt().isBefore(before.minusSeconds(1)), "written at " + entry.writtenAt());
        assertFalse(entry.writtenAt().isAfter(after.plusSeconds(1)), "written at " + entry.writtenAt());
    }

    private static void assertCausedBy(IOException expected, Throwable thrown) {
        for (Throwable t = thrown; t != null; t = t.getCause()) {
            if (t == expected) {
                return;
            }
        }
        throw new AssertionError("the content stream's exception was not propagated", thrown);
    }

    /** A stream of {@code failAfter} bytes that then throws {@code failure}. */
    protected static InputStream failingAfter(int failAfter, IOException failure) {
        return new InputStream() {
            private int position;

            @Override
            public int read() throws IOException {
                if (position >= failAfter) {
                    throw failure;
                }
                position++;
                return 'x';
            }

            @Override
            public int read(byte[] buffer, int offset, int length) throws IOException {
                if (position >= failAfter) {
                    throw failure;
                }
                int n = Math.min(length, failAfter - position);
                Arrays.fill(buffer, offset, offset + n, (byte) 'x');
                position += n;
                return n;
            }
        };
    }

    /** {@code size} bytes that start with {@code id} (4 bytes, big-endian) and follow from it. */
    private static byte[] patterned(int id, int size) {
        byte[] value = new byte[size];
        value[0] = (byte) (id >>> 24);
        value[1] = (byte) (id >>> 16);
        value[2] = (byte) (id >>> 8);
        value[3] = (byte) id;
        for (int i = 4; i < size; i++) {
            value[i] = (byte) (id * 31 + i);
        }
        return value;
    }

    protected static byte[] randomBytes(int size, long seed) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    /** Runs the tasks on {@code threads} threads, released together, and returns their results in order. */
    protected static <T> List<T> runConcurrently(List<Callable<T>> tasks, int threads) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<T>> futures = new ArrayList<>();
            for (Callable<T> task : tasks) {
                futures.add(pool.submit(() -> {
                    start.await();
                    return task.call();
                }));
            }
            start.countDown();
            List<T> results = new ArrayList<>();
            for (Future<T> future : futures) {
                results.add(future.get(5, TimeUnit.MINUTES)); // a hang guard, not a speed check
            }
            return results;
        } finally {
            pool.shutdownNow();
        }
    }
}
