package org.storeservice.codec.content.fast;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * The request body as the parser reads it, keeping a copy of every byte handed out, up to a cap: the
 * content fast path needs the bytes the parser has already been given (the document up to {@code <content>}
 * and what it read ahead). Past the cap, or once {@link #stopRecording()} was called, it only passes bytes on.
 *
 * <p>Not thread-safe: one per request.
 */
final class RecordingInputStream extends InputStream {
    private static final int INITIAL_CAPACITY = 8 * 1024;

    private final InputStream source;
    private final int cap;
    private byte[] recorded;
    private int length;
    private boolean recording = true;

    RecordingInputStream(InputStream source, int cap) {
        this.source = source;
        this.cap = cap;
    }

    /** The body below the recording: reading it directly skips the recording. */
    InputStream source() {
        return source;
    }

    /** True while every byte handed out so far is in {@link #recorded()}. */
    boolean complete() {
        return recording;
    }

    /** The recorded bytes, valid up to {@link #length()}; {@code null} if nothing was recorded. */
    byte[] recorded() {
        return recorded;
    }

    int length() {
        return length;
    }

    /** Stops recording for good and lets go of the copy (the caller may keep {@link #recorded()}). */
    void stopRecording() {
        recording = false;
        recorded = null;
        length = 0;
    }

    @Override
    public int read() throws IOException {
        int b = source.read();
        if (b >= 0 && recording) {
            record(new byte[] {(byte) b}, 0, 1);
        }
        return b;
    }

    @Override
    public int read(byte[] buffer, int offset, int count) throws IOException {
        int n = source.read(buffer, offset, count);
        if (n > 0 && recording) {
            record(buffer, offset, n);
        }
        return n;
    }

    @Override
    public int available() throws IOException {
        return source.available();
    }

    private void record(byte[] bytes, int offset, int count) {
        if (count > cap - length) {
            stopRecording(); // too much before the content: no fast path for this request
            return;
        }
        if (recorded == null) {
            recorded = new byte[Math.min(cap, Math.max(INITIAL_CAPACITY, count))];
        } else if (count > recorded.length - length) {
            recorded = Arrays.copyOf(recorded, Math.min(cap, Math.max(recorded.length * 2, length + count)));
        }
        System.arraycopy(bytes, offset, recorded, length, count);
        length += count;
    }
}
