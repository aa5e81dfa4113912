package org.storeservice.api.storage;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.storeservice.api.OverwritePolicy;

/**
 * Where a {@link org.storeservice.api.Store} keeps its entries: the SPI a host implements to plug in
 * its own storage. Open one by URI with {@link Storages#open(String)}, or construct it directly.
 *
 * <p>Every write is atomic: readers see the previous value (or none) or the whole new one, never part of
 * it. After a write that returns, the value is as durable as the backend promises (see each backend's
 * docs) and every later {@link #get(String)} sees it. A write that throws is <em>not known</em> to be
 * stored: usually nothing changed, but a backend whose connection to a database breaks after the database
 * committed and before it answered (a network backend) cannot tell, and the new value may be there.
 *
 * <p>Implementations must be thread-safe: a store calls them from many request threads at once.
 * Keys and values have already been validated by the store (non-null, non-empty key, within limits).
 *
 * <p><b>The contract</b>, every rule of which {@code store-testkit}'s {@code StorageContractTest} checks (each of
 * its failures names the rule):
 * <ol>
 *   <li>values round-trip exactly: text (empty, U+0000, any Unicode) as text, bytes (empty, large) as bytes; a
 *       rewrite replaces value and kind; {@link OverwritePolicy#REJECT} leaves a stored value alone;</li>
 *   <li>writes are atomic, also when concurrent: writers to one key leave one whole value, writers to different
 *       keys lose nothing, and under {@code REJECT} exactly one concurrent writer of a new key wins;</li>
 *   <li>{@link #putBytes} reads {@code content} to its end; if the stream fails, the call throws an
 *       {@link IOException} caused by (or being) the stream's own, stores nothing and keeps the previous value;
 *       {@link #putBytesAsync} stores what {@code putBytes} would, and fails its stage where {@code putBytes}
 *       throws;</li>
 *   <li>{@link #scan} visits the keys with a prefix in {@link String#compareTo} order, and a visitor's failure
 *       propagates without breaking the storage;</li>
 *   <li>{@link #putAll} stores every entry (the last of a repeated key wins) and stamps its own write time;</li>
 *   <li>{@link #delete} is optional: the default throws {@link UnsupportedOperationException} (the operator
 *       commands that delete then say so), and a backend that implements it removes one entry of either kind and
 *       says whether there was one;</li>
 *   <li>after {@link #close()}, every call throws an {@link IOException}; closing twice is harmless; a durable
 *       backend, opened again, has everything written before the close.</li>
 * </ol>
 */
public interface Storage extends AutoCloseable {

    /**
     * Stores {@code value} as text under {@code key}.
     *
     * @param key the entry's key, never {@code null} or empty
     * @param value the text, never {@code null}
     * @param policy what to do if {@code key} already holds a value
     * @return {@code true} if stored; {@code false} only when {@code policy} is {@link OverwritePolicy#REJECT}
     *     and {@code key} already held a value, which is then left unchanged
     * @throws IOException if the value is not known to be stored: the previous value or the new one, never
     *     part of it (see the class description)
     */
    boolean putText(String key, String value, OverwritePolicy policy) throws IOException;

    /**
     * {@link #putText}, without blocking the calling thread: the stage completes with what {@code putText} would
     * return, or exceptionally with what it would throw, once the value is as durable as {@code putText}'s return
     * promises. A backend that queues its writes (SQLite's group commit) completes it on the thread that
     * committed them, so that no thread waits per write; the stage's dependents run there, and must not block.
     *
     * <p>The default calls {@code putText} right here if {@link #writesNeverBlock()}, else on
     * {@code blockingWork}, which is correct for any backend.
     *
     * @param key as for {@code putText}
     * @param value as for {@code putText}
     * @param policy as for {@code putText}
     * @param blockingWork runs work that may block; a caller on a thread that may block passes {@code Runnable::run}
     * @return what {@code putText} would return, once known
     */
    default CompletionStage<Boolean> putTextAsync(String key, String value, OverwritePolicy policy,
            Executor blockingWork) {
        return writeAsync(() -> putText(key, value, policy), blockingWork);
    }

    /**
     * Stores the bytes of {@code content}, read to its end, under {@code key}. The backend should pass
     * the stream on (to a driver or file) rather than buffer it whole, where it can.
     *
     * <p>If reading {@code content} throws, the backend must propagate that exception (wrapped or not)
     * and store nothing.
     *
     * @param key the entry's key, never {@code null} or empty
     * @param content the bytes, read to its end; the caller closes it
     * @param policy what to do if {@code key} already holds a value
     * @return {@code true} if stored; {@code false} only when {@code policy} is {@link OverwritePolicy#REJECT}
     *     and {@code key} already held a value, which is then left unchanged
     * @throws IOException if the content could not be read (nothing was stored) or the value is not known to
     *     be stored: the previous value or the new one, never part of it (see the class description)
     */
    boolean putBytes(String key, InputStream content, OverwritePolicy policy) throws IOException;

    /**
     * {@link #putBytes}, without blocking the calling thread: the stage completes with what {@code putBytes} would
     * return, or exceptionally with what it would throw (a failure of {@code content} included), once the value is as
     * durable as {@code putBytes}'s return promises. A backend that queues its writes may read a small {@code content}
     * right here and complete the stage on the thread that committed it (SQLite and PostgreSQL do, for a value of up
     * to 64 KiB), so that no thread waits per write; the stage's dependents run there, and must not block.
     *
     * <p>Reading {@code content} is the caller's side of the promise, as for {@link #writesNeverBlock()}: a caller on
     * a thread that must not block passes content already in memory. The default calls {@code putBytes} right here if
     * {@link #writesNeverBlock()}, else on {@code blockingWork}, which is correct for any backend.
     *
     * @param key as for {@code putBytes}
     * @param content as for {@code putBytes}; the caller closes it once the stage has completed
     * @param policy as for {@code putBytes}
     * @param blockingWork runs work that may block; a caller on a thread that may block passes {@code Runnable::run}
     * @return what {@code putBytes} would return, once known
     */
    default CompletionStage<Boolean> putBytesAsync(String key, InputStream content, OverwritePolicy policy,
            Executor blockingWork) {
        return writeAsync(() -> putBytes(key, content, policy), blockingWork);
    }

    /** Runs {@code write} right here if {@link #writesNeverBlock()}, else on {@code blockingWork}. */
    private CompletionStage<Boolean> writeAsync(Callable<Boolean> write, Executor blockingWork) {
        if (!writesNeverBlock()) {
            return CompletableFuture.supplyAsync(() -> {
                try {
                    return write.call();
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new CompletionException(e);
                }
            }, blockingWork);
        }
        try {
            return CompletableFuture.completedFuture(write.call());
        } catch (Exception e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * {@return the entry stored under {@code key}, if any} The wire contract has no read; hosts, operators'
     * tools and tests need one.
     *
     * @param key the entry's key
     * @throws IOException if the backend could not be read
     */
    Optional<StoredEntry> get(String key) throws IOException;

    /**
     * Visits every entry whose key starts with {@code keyPrefix} (empty for all), in ascending key order
     * (by UTF-16 code unit, as {@link String#compareTo(String)}), one at a time, so that a store larger
     * than memory can be exported. Entries written during a scan may or may not be visited.
     *
     * @param keyPrefix the keys to visit start with it; empty for every key
     * @param visitor receives each entry; what it throws ends the scan and is thrown on
     * @throws IOException if the backend could not be read, or the visitor threw it
     */
    void scan(String keyPrefix, EntryVisitor visitor) throws IOException;

    /**
     * Removes the entry stored under {@code key}, atomically: readers see the entry whole or not at all. After it
     * returns, the removal is as durable as a write, and every later {@link #get(String)} finds nothing. Operators'
     * tools need it; the wire contract has no delete.
     *
     * <p>Every backend this project ships implements it. The default is for backends written before it existed, and
     * throws {@link UnsupportedOperationException}; {@code StorageContractTest} checks a backend's own.
     *
     * @param key the entry's key
     * @return {@code true} if there was an entry under {@code key}, {@code false} if there was none (nothing changed)
     * @throws IOException if the removal is not known to have happened
     */
    default boolean delete(String key) throws IOException {
        throw new UnsupportedOperationException(getClass().getName() + " cannot delete entries");
    }

    /**
     * Stores every entry of {@code entries}, in order, each under its key with its kind and value, replacing what
     * was there ({@link OverwritePolicy#REPLACE}); for moving many entries at once (an import). Each entry's
     * {@link StoredEntry#writtenAt()} is not kept: the backend stamps the write with the time it makes it.
     *
     * <p>A backend may commit the entries together (SQLite and PostgreSQL: one transaction, one fsync for all),
     * which is why this is faster than one {@code put} per entry. After it returns every entry is as durable as a
     * single write. If it throws, some of the entries may be stored (each whole, never part of one) and others not;
     * writing the same entries again is the way to finish. The default writes them one by one, so a backend written
     * before this method existed keeps working.
     *
     * @param entries the entries to store, in order; each entry's key, kind and value are used
     * @throws IOException if the entries are not known to be stored, for example because one of them cannot be
     */
    default void putAll(List<StoredEntry> entries) throws IOException {
        for (StoredEntry entry : entries) {
            boolean stored = entry.kind() == EntryKind.TEXT
                    ? putText(entry.key(), entry.text(), OverwritePolicy.REPLACE)
                    : putBytes(entry.key(), new ByteArrayInputStream(entry.bytes()), OverwritePolicy.REPLACE);
            if (!stored) { // REPLACE never refuses; a backend that does is not keeping the contract
                throw new StorageException(getClass().getName() + " refused to replace an entry, which REPLACE never does");
            }
        }
    }

    /**
     * {@return whether {@link #putText} and {@link #putBytes} never block}, so that a server may call them on a thread
     * that must not block, such as a Jetty selector thread that serves many connections. {@code false} by
     * default, which is always safe: the server then calls the storage on a thread that may block.
     *
     * <p>A storage that answers {@code true} promises that its writes only compute: they never wait for I/O
     * (disk, network, a database), never wait for a lock that another thread may hold across I/O, and never
     * wait for another thread to do work for them (a queue, a pool, a group commit). Their time is bounded by
     * the size of the value. Reading {@code content} in {@link #putBytes} is the caller's side of the promise:
     * a caller on such a thread passes content that is already in memory. Logging a failure is allowed. The
     * answer must not change over the storage's life. {@link #get} and {@link #scan} are not covered.
     *
     * <p>A storage that wraps another one answers for itself: forwarding the wrapped storage's answer is
     * right only if the wrapper adds no waiting of its own.
     */
    default boolean writesNeverBlock() {
        return false;
    }

    /**
     * Returns if a write would be stored now; throws, saying why, if it would not: the readiness check
     * ({@link StorageProbe}) asks this, so that a load balancer sends writes only to servers whose writes commit. It
     * may take as long as a write; the probe bounds the wait.
     *
     * <p>The default reads a key nobody writes ({@value StorageProbe#PROBE_KEY}): right for a backend whose reads
     * and writes fail together. A backend whose reads may work while its writes cannot commit (a database whose
     * primary is gone, or waits for a synchronous standby) makes a write of its own here: PostgreSQL's commits a
     * one-row update of its schema table.
     *
     * @throws IOException if a write would not be stored now, with the reason
     */
    default void checkWritable() throws IOException {
        get(StorageProbe.PROBE_KEY);
    }

    /** Releases the backend's resources; calls after close fail. Closing twice is harmless. */
    @Override
    void close() throws IOException;
}
