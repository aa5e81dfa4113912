package org.storeservice.codec.wire;

/**
 * A request body whose last bytes can be seen before they are read: a body collected in full before the codec runs.
 * The large-content fast path looks at them to see where the content ends, so that its size estimate is exact and a
 * store reads the value into one array of its size, with no copy to trim it (BENCHMARKS.md, thirteenth round).
 */
public interface BodyTail {
    /**
     * Copies the body's last bytes, at most {@code into.length} of them, to the start of {@code into}, in order (the
     * body's last byte last).
     *
     * @return how many were copied; 0 if they cannot be seen without reading (a body kept in a file, for one)
     */
    int copyTail(byte[] into);
}
