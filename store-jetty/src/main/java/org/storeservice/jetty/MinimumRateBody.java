package org.storeservice.jetty;

import java.io.IOException;
import java.io.InputStream;
import java.util.function.LongSupplier;

/**
 * The request body, failed as soon as it is seen to arrive slower than a minimum average rate.
 *
 * <p>Jetty's idle timeout only bounds each silence: a client that sends one byte just inside every idle
 * timeout would otherwise hold a request thread for as long as the size limit lets it trickle. After a
 * grace period (for clients that pause before the body, as some do around {@code Expect: 100-continue}),
 * the average rate since the request began must stay at or above the minimum. The rate is checked each
 * time a read returns; a read that blocks is bounded by the idle timeout. Together they bound how long any
 * body can take.
 *
 * <p>Jetty's own {@code MinimumDataRateHandler} is not used because it measures the bytes of every request
 * through the handler, not of the one being read, so traffic from others can hide a trickling client.
 */
final class MinimumRateBody extends InputStream {
    private final InputStream body;
    private final long minBytesPerSecond;
    private final long graceNanos;
    private final LongSupplier nanoClock;
    private final long startNanos;
    private long bytesRead;

    /**
     * @param minBytesPerSecond the slowest accepted average rate; {@code 0} turns the check off
     * @param graceNanos how long the body may take before the rate counts
     * @param nanoClock a monotonic clock in nanoseconds ({@code System::nanoTime})
     */
    MinimumRateBody(InputStream body, long minBytesPerSecond, long graceNanos, LongSupplier nanoClock) {
        this.body = body;
        this.minBytesPerSecond = minBytesPerSecond;
        this.graceNanos = graceNanos;
        this.nanoClock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
    }

    /** How many bytes have been read so far. */
    long bytesRead() {
        return bytesRead;
    }

    @Override
    public int read() throws IOException {
        int b = body.read();
        if (b >= 0) {
            counted(1);
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        int n = body.read(buffer, offset, length);
        if (n > 0) {
            counted(n);
        }
        return n;
    }

    @Override
    public int available() throws IOException {
        return body.available();
    }

    // Not closed here: Jetty owns the request content and discards what the codec left unread.
    @Override
    public void close() {
    }

    // Checked only when bytes arrive: once the body has ended, no thread is held any more, and rejecting a
    // complete request then would gain nothing.
    private void counted(int n) throws IOException {
        bytesRead += n;
        if (minBytesPerSecond == 0) {
            return;
        }
        long elapsed = nanoClock.getAsLong() - startNanos;
        if (elapsed <= graceNanos) {
            return;
        }
        // bytesRead / seconds < min, without dividing: bytesRead * 1e9 < min * elapsed, in doubles to avoid overflow.
        if ((double) bytesRead * 1_000_000_000d < (double) minBytesPerSecond * elapsed) {
            throw new RequestBodyTooSlowException(bytesRead, elapsed);
        }
    }

    /** The body arrived slower than the minimum rate. */
    static final class RequestBodyTooSlowException extends IOException {
        private static final long serialVersionUID = 1L;

        RequestBodyTooSlowException(long bytes, long nanos) {
            super("Request body too slow: " + bytes + " bytes in " + nanos / 1_000_000 + " ms");
        }
    }
}
