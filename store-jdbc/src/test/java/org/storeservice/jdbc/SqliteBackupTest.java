package org.storeservice.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StorageException;
import org.storeservice.api.storage.Storages;

/**
 * A backup taken while eight writers keep writing holds every write acknowledged before it began, exactly, is a sound
 * SQLite file, and opens as a storage of its own.
 */
class SqliteBackupTest {

    @Test
    void aBackupUnderConcurrentWritesHoldsEveryWriteAcknowledgedBeforeItBegan(@TempDir Path directory) throws Exception {
        Path backup = directory.resolve("backup.db");
        Map<String, String> acknowledgedBeforeBackup = new ConcurrentHashMap<>();
        AtomicBoolean backupBegan = new AtomicBoolean();
        AtomicBoolean writing = new AtomicBoolean(true);
        try (Storage storage = Storages.open("sqlite:" + directory.resolve("store.db"))) {
            ExecutorService writers = Executors.newFixedThreadPool(8);
            CountDownLatch someWritten = new CountDownLatch(8 * 50);
            List<Future<Integer>> done = new ArrayList<>();
            for (int w = 0; w < 8; w++) {
                int writer = w;
                done.add(writers.submit(() -> {
                    int i = 0;
                    while (writing.get()) {
                        String key = "w" + writer + "-" + i;
                        String value = "value " + key + " " + "x".repeat(i % 200);
                        assertTrue(storage.putText(key, value, OverwritePolicy.REPLACE));
                        if (!backupBegan.get()) { // read after the acknowledgement: it came before the backup began
                            acknowledgedBeforeBackup.put(key, value);
                        }
                        someWritten.countDown();
                        i++;
                    }
                    return i;
                }));
            }
            someWritten.await();
            backupBegan.set(true);
            ((JdbcStorage) storage).backupTo(backup);
            Thread.sleep(50); // writes go on after the backup too
            writing.set(false);
            int total = 0;
            for (Future<Integer> writer : done) {
                total += assertTimeoutPreemptively(Duration.ofSeconds(60), () -> writer.get());
            }
            writers.shutdown();
            assertTrue(total > acknowledgedBeforeBackup.size(), "writes went on during and after the backup");

            StorageException again = assertThrows(StorageException.class, () -> ((JdbcStorage) storage).backupTo(backup));
            assertTrue(again.getMessage().startsWith("Will not overwrite "), again.getMessage());
        }
        try (Connection copy = DriverManager.getConnection("jdbc:sqlite:" + backup);
                ResultSet check = copy.createStatement().executeQuery("PRAGMA integrity_check")) {
            assertTrue(check.next());
            assertEquals("ok", check.getString(1));
        }
        try (Storage restored = Storages.open("sqlite:" + backup)) {
            assertFalse(acknowledgedBeforeBackup.isEmpty());
            for (Map.Entry<String, String> write : acknowledgedBeforeBackup.entrySet()) {
                assertEquals(write.getValue(), restored.get(write.getKey()).orElseThrow(
                        () -> new AssertionError(write.getKey() + " acknowledged before the backup, not in it")).text());
            }
        }
        assertTrue(Files.size(backup) > 0);
    }
}
