package org.storeservice.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.slf4j.Logger;
import org.storeservice.api.storage.StorageException;

/** One line per Error, rate-limited per reason on a clock the test moves; the logger is a mock collaborator. */
class OutcomeLogTest {
    private final Logger logger = mock(Logger.class);
    private final AtomicLong now = new AtomicLong(1_000);
    private final OutcomeLog outcomes = new OutcomeLog(logger, now::get);

    OutcomeLogTest() {
        when(logger.isInfoEnabled()).thenReturn(true);
    }

    @Test
    void aStorageFailureIsOneWarnLineWithTheCausesAndTheStorageAndItsStackAtDebug() {
        StorageException failure = new StorageException("Write to SQLite failed: [SQLITE_FULL] database or disk is full",
                new IOException("[SQLITE_FULL] database or disk is full"));
        outcomes.failed("WriteBytes", "k\n1", failure, "JdbcStorage{sqlite:/data/store.db}");

        verify(logger).warn("{} failed for key {}: {} (storage {}){}", "WriteBytes", "'k\\u000a1'",
                "Write to SQLite failed: [SQLITE_FULL] database or disk is full", "JdbcStorage{sqlite:/data/store.db}", "");
        verify(logger).debug("{} failed for key {}", "WriteBytes", "'k\\u000a1'", failure);
    }

    @Test
    void theCauseChainNamesEveryDistinctMessageOnce() {
        Exception chain = new StorageException("No connection to PostgreSQL: request timed out",
                new IOException("request timed out",
                        new IOException("FATAL: password authentication failed for user \"store\"")));
        assertEquals("No connection to PostgreSQL: request timed out: FATAL: password authentication failed for user"
                + " \"store\"", OutcomeLog.causes(chain));
        assertEquals("IllegalStateException", OutcomeLog.causes(new IllegalStateException()));
        assertEquals("line\\u000abreak", OutcomeLog.causes(new RuntimeException("line\nbreak")));
    }

    @Test
    void repeatedFailuresLogOneWarnPerIntervalThenSayHowManyWereLeftOut() {
        StorageException failure = new StorageException("database is locked");
        for (int i = 0; i < 5; i++) {
            outcomes.failed("WriteString", "k" + i, failure, "s");
        }
        verify(logger, times(1)).warn(anyString(), any(Object[].class));
        outcomes.failed("WriteString", "other", new StorageException("disk full"), "s"); // another reason: its own line
        verify(logger, times(2)).warn(anyString(), any(Object[].class));

        now.addAndGet(OutcomeLog.INTERVAL_NANOS);
        outcomes.failed("WriteString", "k5", failure, "s");
        verify(logger).warn("{} failed for key {}: {} (storage {}){}", "WriteString", "'k5'", "database is locked", "s",
                " (4 more like it left out in the last interval)");
        verify(logger, times(7)).debug(anyString(), any(Object[].class));
    }

    @Test
    void invalidInputIsOneInfoLinePerReasonAndInterval() {
        outcomes.rejected("WriteString", "k", "value is missing");
        outcomes.rejected("WriteString", "k2", "value is missing");
        outcomes.rejected("WriteBytes", null, "key is missing");
        verify(logger).info("{} rejected for key {}: {}{}", "WriteString", "'k'", "value is missing", "");
        verify(logger).info("{} rejected for key {}: {}{}", "WriteBytes", "(none)", "key is missing", "");
        verify(logger, never()).info(anyString(), eq("WriteString"), eq("'k2'"), anyString(), anyString());
        verify(logger, never()).warn(anyString(), any(Object[].class));
    }
}
