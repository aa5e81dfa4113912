package org.storeservice.jetty;

/**
 * The slowest average rate a request body may arrive at, after a grace period for clients that pause before
 * sending it (as some do around {@code Expect: 100-continue}).
 *
 * <p>Jetty's idle timeout only bounds each silence: a client that sends one byte just inside every idle
 * timeout would otherwise hold its connection and its body's buffer for as long as the size limit lets it
 * trickle. Checked each time bytes arrive; a silence is the idle timeout's. Jetty's own
 * {@code MinimumDataRateHandler} is not used because it measures the bytes of every request through the
 * handler, not of the one being read, so traffic from others can hide a trickling client (and 12.1 ignores
 * {@code HttpConfiguration.setMinRequestDataRate}).
 *
 * @param bytesPerSecond the slowest accepted average rate; {@code 0} turns the check off
 * @param graceNanos how long a body may take before its rate counts
 */
record MinimumRate(long bytesPerSecond, long graceNanos) {

    /** Whether {@code bytes} arriving in {@code elapsedNanos} since the request began is too slow. */
    boolean tooSlow(long bytes, long elapsedNanos) {
        if (bytesPerSecond == 0 || elapsedNanos <= graceNanos) {
            return false;
        }
        // bytes / seconds < min, without dividing: bytes * 1e9 < min * elapsed, in doubles to avoid overflow.
        return (double) bytes * 1_000_000_000d < (double) bytesPerSecond * elapsedNanos;
    }
}
