package org.storeservice.shadow;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

/**
 * Writes the primary's answer to the client, piece by piece in order, without holding the primary back: the primary is
 * read on while earlier pieces are still on their way to the client, as long as the bytes waiting for the client stay
 * within a bound; past it, the primary is read on only as the client takes them. So an answer within the bound (a
 * write's is a few hundred bytes) is read whole from the primary whatever the client does, and the key's turn is given
 * back without waiting for the client; memory stays within the bound for each exchange. Once a write to the client
 * fails, the rest is dropped (the primary is still read to its end). Thread-safe.
 */
final class ClientWriter {
    private final Response response;
    private final long bound;
    private final Deque<Piece> pieces = new ArrayDeque<>();
    private long waitingBytes;
    private boolean writing;
    /** The primary's next read, held while the bytes waiting are over the bound. */
    private Runnable held;
    private Throwable failure;

    /**
     * @param chunk the chunk to release once written, or {@code null}
     * @param bytes what to write, or {@code null} for none (a marker: {@code done} runs once the pieces before it did)
     * @param done told once it is written or cannot be, or {@code null}
     */
    private record Piece(Content.Chunk chunk, ByteBuffer bytes, boolean last, Callback done) {
        int size() {
            return bytes == null ? 0 : bytes.remaining();
        }
    }

    ClientWriter(Response response, long bound) {
        this.response = response;
        this.bound = bound;
    }

    /** Why the client's answer could not be written, once it could not; else {@code null}. */
    synchronized Throwable failure() {
        return failure;
    }

    /** Writes {@code chunk} after what is waiting; runs {@code readMore} now if within the bound, else once it is. */
    void write(Content.Chunk chunk, Runnable readMore) {
        boolean now = true;
        synchronized (this) {
            if (failure == null) {
                chunk.retain();
                Piece piece = new Piece(chunk, chunk.getByteBuffer(), false, null);
                pieces.addLast(piece);
                waitingBytes += piece.size();
                if (waitingBytes > bound) {
                    held = readMore;
                    now = false;
                }
            }
        }
        pump();
        if (now) {
            readMore.run();
        }
    }

    /** Writes {@code bytes} (not the last) after what is waiting; they are the caller's no more. */
    void write(ByteBuffer bytes) {
        add(new Piece(null, bytes, false, null));
    }

    /** Ends the answer with {@code bytes} after what is waiting; {@code done} is told when the answer is complete. */
    void end(ByteBuffer bytes, Callback done) {
        add(new Piece(null, bytes, true, done));
    }

    /** Runs {@code then} once every piece before it was written or dropped, without writing the answer's end. */
    void then(Runnable then) {
        add(new Piece(null, null, false, Callback.from(then, x -> then.run())));
    }

    private void add(Piece piece) {
        Throwable failed;
        synchronized (this) {
            failed = failure;
            if (failed == null) {
                pieces.addLast(piece);
                waitingBytes += piece.size();
            }
        }
        if (failed != null) {
            if (piece.done() != null) {
                piece.done().failed(failed);
            }
            return;
        }
        pump();
    }

    private void pump() {
        while (true) {
            Piece piece;
            synchronized (this) {
                if (writing || pieces.isEmpty()) {
                    return;
                }
                piece = pieces.peekFirst();
                if (piece.bytes() != null) {
                    writing = true;
                } else {
                    pieces.pollFirst();
                }
            }
            if (piece.bytes() == null) {
                piece.done().succeeded();
                continue;
            }
            response.write(piece.last(), piece.bytes(), Callback.from(() -> written(piece, null), x -> written(piece, x)));
            return;
        }
    }

    private void written(Piece piece, Throwable failed) {
        Runnable resume = null;
        List<Piece> dropped = List.of();
        synchronized (this) {
            pieces.pollFirst();
            writing = false;
            waitingBytes -= piece.size();
            if (failed != null && failure == null) {
                failure = failed;
                dropped = new ArrayList<>(pieces);
                pieces.clear();
                waitingBytes = 0;
            }
            if (held != null && (failure != null || waitingBytes <= bound)) {
                resume = held;
                held = null;
            }
        }
        finish(piece, failed);
        for (Piece left : dropped) {
            finish(left, failure());
        }
        if (resume != null) {
            resume.run();
        }
        pump();
    }

    private static void finish(Piece piece, Throwable failed) {
        if (piece.chunk() != null) {
            piece.chunk().release();
        }
        if (piece.done() != null) {
            if (failed == null) {
                piece.done().succeeded();
            } else {
                piece.done().failed(failed);
            }
        }
    }
}
