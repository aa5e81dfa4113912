package org.storeservice.codec.content.fast;

import java.util.concurrent.atomic.LongAdder;

/**
 * When the byte-level path for WriteBytes {@code <content>} ({@link ContentFastPath}) is tried: only for large
 * bodies, where skipping the parser's char pipeline pays for a second parser. Counts how often it was taken,
 * so tests can tell that it was.
 *
 * <p>Thread-safe; one per codec.
 */
public final class FastPathPolicy {
    /** Smaller bodies are parsed as before: a second parser would cost more than the run saves. */
    static final long MINIMUM_BODY_BYTES = 16 * 1024;
    /** A run already read whole (it ends within the recorded bytes) is decoded by the parser unless this long. */
    static final int MINIMUM_RECORDED_RUN = 8 * 1024;
    /** Bytes recorded at most before the content; a request with more takes the normal path. */
    static final int RECORDING_LIMIT = 64 * 1024;

    private final boolean enabled;
    private final long minimumBodyBytes;
    private final int minimumRecordedRun;
    private final LongAdder taken = new LongAdder();

    FastPathPolicy(boolean enabled, long minimumBodyBytes, int minimumRecordedRun) {
        this.enabled = enabled;
        this.minimumBodyBytes = minimumBodyBytes;
        this.minimumRecordedRun = minimumRecordedRun;
    }

    /**
     * The codec's policy, a new one for each codec (it counts that codec's requests): bodies of at least
     * {@link #MINIMUM_BODY_BYTES} or of unknown length, runs as {@link #MINIMUM_RECORDED_RUN}.
     */
    public static FastPathPolicy standard() {
        return new FastPathPolicy(true, MINIMUM_BODY_BYTES, MINIMUM_RECORDED_RUN);
    }

    /** Never: every content through the parser. */
    static FastPathPolicy never() {
        return new FastPathPolicy(false, Long.MAX_VALUE, Integer.MAX_VALUE);
    }

    /** Whether to record a body of {@code declaredLength} bytes (-1: unknown, e.g. chunked) for the fast path. */
    boolean records(long declaredLength) {
        return enabled && (declaredLength < 0 || declaredLength >= minimumBodyBytes);
    }

    /**
     * Whether a base64 run found whole in the bytes already read (it ends before them) is long enough to be
     * worth a second parser; a run that reaches past them always is.
     */
    boolean worthIt(int recordedRun) {
        return recordedRun >= minimumRecordedRun;
    }

    void taken() {
        taken.increment();
    }

    /** How many contents took the fast path. */
    long timesTaken() {
        return taken.sum();
    }
}
