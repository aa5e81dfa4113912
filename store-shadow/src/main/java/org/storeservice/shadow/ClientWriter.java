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
 * within a bound for the exchange and each piece can be reserved in the proxy's {@link ClientAnswerBudget}; past
 * either, the primary is read on only as the client takes them. So an answer within the bound (a write's is a few
 * hundred bytes) is read whole from the primary whatever the client does while the budget lasts, and the key's turn is
 * given back without waiting for the client; memory stays within the budget, plus one piece for each exchange. Once a
 * write to the client fails, the rest is dropped (the primary is still read to its end). Thread-safe.
 */
final class ClientWriter {
    private final Response response;
    private final long bound;
    private final ClientAnswerBudget budget;
    /** Pieces waiting that the budget had no room for: the primary is read on once they are written. */
    private int unreserved;
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
     * @param size how many bytes it had to write (taken when it was made: writing consumes the buffer)
     * @param reserved whether its bytes are reserved in the budget
     */
    private record Piece(Content.Chunk chunk, ByteBuffer bytes, boolean last, Callback done, int size,
            boolean reserved) {
    }

    ClientWriter(Response response, long bound, ClientAnswerBudget budget) {
        this.response = response;
        this.bound = bound;
        this.budget = budget;
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
                Piece piece = piece(chunk, chunk.getByteBuffer(), false, null);
                pieces.addLast(piece);
                waitingBytes += piece.size();
                if (waitingBytes > bound || unreserved > 0) {
                    held = readMore;
                    budget.heldBack(1);
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
        add(bytes, false, null);
    }

    /** Ends the answer with {@code bytes} after what is waiting; {@code done} is told when the answer is complete. */
    void end(ByteBuffer bytes, Callback done) {
        add(bytes, true, done);
    }

    /** Runs {@code then} once every piece before it was written or dropped, without writing the answer's end. */
    void then(Runnable then) {
        add(null, false, Callback.from(then, x -> then.run()));
    }

    private void add(ByteBuffer bytes, boolean last, Callback done) {
        Throwable failed;
        synchronized (this) {
            failed = failure;
            if (failed == null) {
                Piece piece = piece(null, bytes, last, done);
                pieces.addLast(piece);
                waitingBytes += piece.size();
            }
        }
        if (failed != null) {
            if (done != null) {
                done.failed(failed);
            }
            return;
        }
        pump();
    }

    /** A piece, its bytes reserved in the budget if they fit (else counted as unreserved); under the lock. */
    private Piece piece(Content.Chunk chunk, ByteBuffer bytes, boolean last, Callback done) {
        int size = bytes == null ? 0 : bytes.remaining();
        boolean reserved = size == 0 || budget.tryReserve(size);
        if (!reserved) {
            unreserved++;
        }
        budget.waiting(size);
        return new Piece(chunk, bytes, last, done, size, reserved);
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
            if (!piece.reserved()) {
                unreserved--;
            }
            if (failed != null && failure == null) {
                failure = failed;
                dropped = new ArrayList<>(pieces);
                pieces.clear();
                waitingBytes = 0;
                unreserved = 0;
            }
            if (held != null && (failure != null || waitingBytes <= bound && unreserved == 0)) {
                resume = held;
                held = null;
                budget.heldBack(-1);
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

    private void finish(Piece piece, Throwable failed) {
        budget.waiting(-piece.size());
        if (piece.reserved()) {
            budget.release(piece.size());
        }
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
