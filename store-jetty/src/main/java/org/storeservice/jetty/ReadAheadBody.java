package org.storeservice.jetty;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;

/**
 * A request body as the codec reads it: first the chunks that had already arrived when the request was
 * handled, read without blocking, then, only if the body was not complete, the rest from Jetty, blocking.
 *
 * <p>When {@link #isComplete()} the whole body is in memory and reading it never blocks, so the codec can run
 * on the selector thread. Otherwise the reader must be on a thread that may block. The chunks are Jetty's
 * (pooled buffers): {@link #release()} gives them back, once the codec is done. Not thread-safe: one reader.
 */
final class ReadAheadBody extends InputStream {
    private final Request request;
    private final List<Content.Chunk> chunks = new ArrayList<>(2);
    private long bytes;
    private boolean last;
    private boolean released;
    private int next;
    private InputStream rest;

    private ReadAheadBody(Request request) {
        this.request = request;
    }

    /** A body that reads nothing ahead: all of it comes from Jetty, blocking. */
    static ReadAheadBody none(Request request) {
        return new ReadAheadBody(request);
    }

    /**
     * Reads what has arrived of {@code request}'s body without blocking, stopping once more than
     * {@code maxBytes} are held. Reads nothing if the declared length is over {@code maxBytes} (it could not
     * be complete) or if the client waits for {@code 100 Continue}: reading would send the go-ahead before the
     * codec has decided whether it wants the body.
     */
    static ReadAheadBody read(Request request, int maxBytes) {
        ReadAheadBody body = new ReadAheadBody(request);
        if (request.getLength() > maxBytes || request.getHeaders().contains(HttpHeader.EXPECT, "100-continue")) {
            return body;
        }
        while (body.bytes <= maxBytes) {
            Content.Chunk chunk = request.read();
            if (chunk == null) {
                return body; // the rest has not arrived yet
            }
            if (Content.Chunk.isFailure(chunk)) {
                // A last failure is read again by the blocking reader; a transient one (a timeout) is dropped,
                // and the blocking read waits again, bounded by the idle timeout.
                return body;
            }
            body.chunks.add(chunk);
            body.bytes += chunk.remaining();
            if (chunk.isLast()) {
                body.last = true;
                return body;
            }
        }
        return body;
    }

    /** Whether the whole body is held, so that reading it never blocks. */
    boolean isComplete() {
        return last;
    }

    /** How many bytes of the body were read ahead. */
    long bytesHeld() {
        return bytes;
    }

    @Override
    public int read() throws IOException {
        ByteBuffer held = held();
        if (held != null) {
            return held.get() & 0xff;
        }
        return last ? -1 : rest().read();
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        Objects.checkFromIndexSize(offset, length, buffer.length);
        if (length == 0) {
            return 0;
        }
        ByteBuffer held = held();
        if (held != null) {
            int n = Math.min(length, held.remaining());
            held.get(buffer, offset, n);
            return n;
        }
        return last ? -1 : rest().read(buffer, offset, length);
    }

    /** The first held chunk's bytes not read yet, or {@code null} when every held byte was read. */
    private ByteBuffer held() throws IOException {
        if (released) {
            throw new IOException("Request body already released");
        }
        for (; next < chunks.size(); next++) {
            ByteBuffer held = chunks.get(next).getByteBuffer();
            if (held.hasRemaining()) {
                return held;
            }
        }
        return null;
    }

    private InputStream rest() {
        if (rest == null) {
            rest = Content.Source.asInputStream(request);
        }
        return rest;
    }

    @Override
    public int available() throws IOException {
        if (next < chunks.size()) {
            return chunks.get(next).remaining();
        }
        return rest == null || released ? 0 : rest.available();
    }

    // Not closed here: Jetty owns the request content; release() gives back what was read ahead.
    @Override
    public void close() {
    }

    /** Gives the chunks read ahead back to Jetty's pool. Idempotent; reading afterwards fails. */
    void release() {
        if (released) {
            return;
        }
        released = true;
        for (Content.Chunk chunk : chunks) {
            chunk.release();
        }
        chunks.clear();
    }
}
