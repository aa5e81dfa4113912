package org.storeservice.examples.storage;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StorageException;
import org.storeservice.api.storage.Storages;
import org.storeservice.api.storage.StoredEntry;

/** What is particular to {@link FilesStorage}; the shared contract runs in {@link FilesStorageContractTest}. */
class FilesStorageTest {
    private static final Instant NOW = Instant.parse("2026-01-02T03:04:05.678Z");

    @TempDir
    Path directory;

    private FilesStorage storage() throws IOException {
        return new FilesStorage(directory, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @Test
    void storesAndReadsBackTextAndBytes() throws IOException {
        FilesStorage storage = storage();

        assertTrue(storage.putText("greeting", "héllo", OverwritePolicy.REPLACE));
        assertTrue(storage.putBytes("blob", new ByteArrayInputStream(new byte[] {0, 1, (byte) 255}), OverwritePolicy.REPLACE));

        assertEquals(StoredEntry.text("greeting", "héllo", NOW), storage.get("greeting").orElseThrow());
        StoredEntry blob = storage.get("blob").orElseThrow();
        assertEquals(EntryKind.BYTES, blob.kind());
        assertArrayEquals(new byte[] {0, 1, (byte) 255}, blob.bytes());
        assertEquals(NOW, blob.writtenAt());
        assertEquals(Optional.empty(), storage.get("absent"));
    }

    @Test
    void keysMayHoldAnyCharacterAndBeLongerThanAFileName() throws IOException {
        FilesStorage storage = storage();
        String key = "../\\:*?\"<>|\u0000 é 😀 " + "k".repeat(1000);

        storage.putText(key, "v", OverwritePolicy.REPLACE);

        assertEquals("v", storage.get(key).orElseThrow().text());
    }

    @Test
    void aLoneSurrogateInAKeyOrTextIsRefusedNotStoredAltered() throws IOException {
        FilesStorage storage = storage();
        storage.putText("?", "question mark", OverwritePolicy.REPLACE); // what Java's UTF-8 writes for one

        assertThrows(StorageException.class, () -> storage.putText("\ud800", "v", OverwritePolicy.REPLACE));
        assertThrows(StorageException.class,
                () -> storage.putBytes("a\udc00", new ByteArrayInputStream(new byte[1]), OverwritePolicy.REPLACE));
        assertThrows(StorageException.class, () -> storage.putText("k", "x\ud800y", OverwritePolicy.REPLACE));

        assertEquals(Optional.empty(), storage.get("\ud800"));
        assertEquals(Optional.empty(), storage.get("k"));
        assertEquals("question mark", storage.get("?").orElseThrow().text());
        assertEquals(List.of(), temporaryFiles());
    }

    @Test
    void replaceOverwritesAndRejectKeepsTheStoredValue() throws IOException {
        FilesStorage storage = storage();
        storage.putText("k", "first", OverwritePolicy.REPLACE);

        assertTrue(storage.putText("k", "second", OverwritePolicy.REPLACE));
        assertFalse(storage.putText("k", "third", OverwritePolicy.REJECT));
        assertFalse(storage.putBytes("k", new ByteArrayInputStream(new byte[1]), OverwritePolicy.REJECT));

        assertEquals("second", storage.get("k").orElseThrow().text());
        assertTrue(storage.putText("new", "x", OverwritePolicy.REJECT));
    }

    @Test
    void aFailingContentStreamStoresNothingAndKeepsThePreviousValue() throws IOException {
        FilesStorage storage = storage();
        storage.putText("k", "previous", OverwritePolicy.REPLACE);
        IOException broken = new IOException("client went away");
        InputStream failing = new SequenceInputStream(new ByteArrayInputStream(new byte[10_000]), new InputStream() {
            @Override
            public int read() throws IOException {
                throw broken;
            }
        });

        IOException thrown = assertThrows(IOException.class, () -> storage.putBytes("k", failing, OverwritePolicy.REPLACE));

        assertEquals(broken, thrown);
        assertEquals("previous", storage.get("k").orElseThrow().text());
        assertEquals(List.of(), temporaryFiles());
    }

    @Test
    void scanVisitsKeysWithThePrefixInKeyOrder() throws IOException {
        FilesStorage storage = storage();
        for (String key : List.of("b", "a/2", "a/10", "a/1", "ab", "A", "a/\uFFFF", "a/😀")) {
            storage.putText(key, key, OverwritePolicy.REPLACE);
        }
        List<String> all = new ArrayList<>();
        List<String> underA = new ArrayList<>();

        storage.scan("", entry -> all.add(entry.key()));
        storage.scan("a/", entry -> underA.add(entry.text()));

        assertEquals(List.of("A", "a/1", "a/10", "a/2", "a/😀", "a/\uFFFF", "ab", "b"), all); // UTF-16 order
        assertEquals(List.of("a/1", "a/10", "a/2", "a/😀", "a/\uFFFF"), underA);
    }

    @Test
    void concurrentWritesToOneKeyLeaveOneWholeValue() throws Exception {
        FilesStorage storage = storage();
        int writers = 8;
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                byte[] value = new byte[64 * 1024];
                java.util.Arrays.fill(value, (byte) i);
                results.add(pool.submit(() -> {
                    go.await();
                    return storage.putBytes("contended", new ByteArrayInputStream(value), OverwritePolicy.REPLACE);
                }));
            }
            go.countDown();
            for (Future<Boolean> result : results) {
                assertTrue(result.get());
            }
        } finally {
            pool.shutdownNow();
        }

        byte[] stored = storage.get("contended").orElseThrow().bytes();
        assertEquals(64 * 1024, stored.length);
        for (byte b : stored) {
            assertEquals(stored[0], b, "bytes of two writes mixed");
        }
        assertEquals(List.of(), temporaryFiles());
    }

    @Test
    void concurrentRejectingWritesLetExactlyOneIn() throws Exception {
        FilesStorage storage = storage();
        int writers = 8;
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        int stored = 0;
        try {
            List<Future<Boolean>> results = new ArrayList<>();
            for (int i = 0; i < writers; i++) {
                String value = "writer " + i;
                results.add(pool.submit(() -> {
                    go.await();
                    return storage.putText("once", value, OverwritePolicy.REJECT);
                }));
            }
            go.countDown();
            for (Future<Boolean> result : results) {
                stored += result.get() ? 1 : 0;
            }
        } finally {
            pool.shutdownNow();
        }

        assertEquals(1, stored);
        assertTrue(storage.get("once").orElseThrow().text().startsWith("writer "));
    }

    @Test
    void entriesSurviveReopening() throws IOException {
        storage().putText("k", "durable", OverwritePolicy.REPLACE);

        assertEquals("durable", storage().get("k").orElseThrow().text());
    }

    @Test
    void callsAfterCloseFail() throws IOException {
        FilesStorage storage = storage();
        storage.close();
        storage.close();

        assertThrows(StorageException.class, () -> storage.get("k"));
        assertThrows(StorageException.class, () -> storage.putText("k", "v", OverwritePolicy.REPLACE));
        assertThrows(StorageException.class, () -> storage.scan("", entry -> { }));
    }

    @Test
    void aForeignFileInTheDirectoryIsReportedNotMisread() throws IOException {
        FilesStorage storage = storage();
        Files.write(directory.resolve("junk.entry"), "not an entry".getBytes(UTF_8));

        assertThrows(StorageException.class, () -> storage.scan("", entry -> { }));
    }

    @Test
    void storagesOpensItByUriThroughTheServiceLoader() throws IOException {
        Path nested = directory.resolve("nested/store");
        try (Storage storage = Storages.open("files:" + nested)) {
            assertInstanceOf(FilesStorage.class, storage);
            storage.putText("k", "v", OverwritePolicy.REPLACE);
        }

        assertTrue(Files.isDirectory(nested));
        assertThrows(IllegalArgumentException.class, () -> Storages.open("files:"));
    }

    private List<Path> temporaryFiles() throws IOException {
        try (Stream<Path> files = Files.list(directory)) {
            return files.filter(file -> file.getFileName().toString().startsWith(".tmp-")).toList();
        }
    }
}
