package org.storeservice.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The rate check against a hand-driven clock, so nothing here depends on how fast the machine is. */
class MinimumRateBodyTest {
    private static final long SECOND = 1_000_000_000L;

    private final AtomicLong now = new AtomicLong(5 * SECOND);

    @Test
    void withinTheGracePeriodAnyRateIsAccepted() throws IOException {
        InputStream body = rated(new byte[3], 1000, 10 * SECOND);

        now.addAndGet(9 * SECOND);
        assertEquals(1, body.read(new byte[1], 0, 1));
    }

    @Test
    void afterTheGracePeriodASlowBodyFails() throws IOException {
        InputStream body = rated(new byte[3], 1000, 10 * SECOND);

        body.read();
        now.addAndGet(11 * SECOND); // 2 bytes in 11 s: far below 1000 B/s
        assertThrows(MinimumRateBody.RequestBodyTooSlowException.class, body::read);
    }

    @Test
    void aBodyFastEnoughOnAverageIsReadWhole() throws IOException {
        InputStream body = rated(new byte[30_000], 1000, 10 * SECOND);

        now.addAndGet(20 * SECOND); // 30,000 bytes in 20 s: 1,500 B/s
        assertEquals(30_000, body.read(new byte[30_000], 0, 30_000));
        assertEquals(-1, body.read());
    }

    @Test
    void theEndOfTheBodyIsNeverRejected() throws IOException {
        InputStream body = rated(new byte[0], 1000, 0);

        now.addAndGet(60 * SECOND);
        assertEquals(-1, body.read());
    }

    @Test
    void aZeroMinimumTurnsTheCheckOff() throws IOException {
        InputStream body = rated(new byte[2], 0, 0);

        now.addAndGet(3600 * SECOND);
        assertEquals(2, body.readAllBytes().length);
    }

    private InputStream rated(byte[] content, long minBytesPerSecond, long graceNanos) {
        return new MinimumRateBody(new ByteArrayInputStream(content), minBytesPerSecond, graceNanos, now::get);
    }
}
