package org.storeservice.jetty;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The rate rule on its own: bytes and elapsed time in, verdict out, so nothing depends on the machine's speed. */
class MinimumRateTest {
    private static final long SECOND = 1_000_000_000L;
    private final MinimumRate rate = new MinimumRate(1000, 10 * SECOND);

    @Test
    void withinTheGracePeriodAnyRateIsAccepted() {
        assertFalse(rate.tooSlow(1, 9 * SECOND));
        assertFalse(rate.tooSlow(0, 10 * SECOND));
    }

    @Test
    void afterTheGracePeriodASlowBodyIsTooSlow() {
        assertTrue(rate.tooSlow(2, 11 * SECOND)); // far below 1000 B/s
        assertTrue(rate.tooSlow(10_999, 11 * SECOND)); // just below
    }

    @Test
    void aBodyFastEnoughOnAverageIsAccepted() {
        assertFalse(rate.tooSlow(30_000, 20 * SECOND)); // 1,500 B/s
        assertFalse(rate.tooSlow(20_000, 20 * SECOND)); // exactly the minimum
    }

    @Test
    void aZeroMinimumTurnsTheCheckOff() {
        assertFalse(new MinimumRate(0, 0).tooSlow(2, 3600 * SECOND));
    }

    @Test
    void hugeNumbersDoNotOverflow() {
        assertFalse(new MinimumRate(Long.MAX_VALUE / 2, 0).tooSlow(Long.MAX_VALUE, 1));
        assertTrue(new MinimumRate(Long.MAX_VALUE, 0).tooSlow(1, Long.MAX_VALUE));
    }
}
