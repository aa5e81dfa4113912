package org.storeservice.server;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StoredEntry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code import}: reads {@linkplain EntryLines JSON Lines} from standard input and writes the entries, in order
 * (last write wins, {@link OverwritePolicy#REPLACE}), keeping their type.
 *
 * <p>Entries are written in batches of {@value #BATCH_ENTRIES} or {@value #BATCH_BYTES} bytes of keys and values,
 * whichever comes first, with {@link Storage#putAll}: SQLite and PostgreSQL commit a batch in one transaction, so an
 * import runs at the backend's batch rate rather than at one fsync per entry. A crash mid-import leaves every
 * committed batch and none of the batch in flight; since a write replaces, running the same import again finishes
 * it (and gives the same result as one clean run).
 *
 * <p>Stops at the first line that is malformed or cannot be stored, naming it, with status 1; the entries of the
 * lines before it are written first. To name the line, a batch that fails is written again entry by entry: those
 * before the bad one are stored, and the import stops there.
 *
 * <p>Writes go to the storage directly, not through a {@code Store}: the entries were accepted once already,
 * possibly under other limits. A line's {@code written} time is checked but not kept: a backend stamps each
 * write with the time it makes it.
 */
@Command(name = "import", mixinStandardHelpOptions = true, versionProvider = ServerVersion.class, showDefaultValues = true,
        header = "Write every entry read as JSON Lines from standard input.",
        description = {"Reads entries in export's JSON Lines format from standard input and writes them in batches"
                + " (one transaction each), keeping their type; an existing key is replaced. Stops with status 1 at the"
                + " first malformed or unstorable line, naming it; the entries before that line stay written, and"
                + " importing again replaces them. After a crash, every committed batch is there: run the same import"
                + " again to finish it.",
                "From SQLite to PostgreSQL:",
                "  java -jar store-server.jar export --storage sqlite:data/store.db \\",
                "    | java -jar store-server.jar import --storage 'jdbc:postgresql://HOST/DB?user=U&password=P'"})
final class ImportCommand extends StorageCommand {
    /** Entries per transaction: enough that the commit's fsync costs little per entry. */
    static final int BATCH_ENTRIES = 1_000;
    /** Bytes of keys and values per transaction at most (one larger entry goes alone): bounds the heap a batch takes. */
    static final long BATCH_BYTES = 8L << 20;
    private static final long PROGRESS_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    @Option(names = "--progress", description = "Print the entries imported so far to standard error every second"
            + " (the default when the JVM has a console). Never read from the environment.")
    boolean progress;

    ImportCommand(ToolContext context) {
        super(context);
    }

    /** The target of an import may be new: a move to PostgreSQL or to a new SQLite file creates it. */
    @Override
    boolean createsStorage() {
        return true;
    }

    /** One entry read, with the line it came from. */
    private record Line(StoredEntry entry, long number) {
    }

    @Override
    int run(Storage storage) throws IOException {
        EntryLineReader reader = new EntryLineReader(context.in());
        boolean showProgress = progress || System.console() != null;
        try (Batch batch = new Batch(storage)) {
            return run(reader, batch, showProgress);
        }
    }

    private int run(EntryLineReader reader, Batch batch, boolean showProgress) {
        long start = System.nanoTime();
        long lastProgress = start;
        try {
            try {
                for (Optional<StoredEntry> next = reader.next(); next.isPresent(); next = reader.next()) {
                    if (batch.add(next.get(), reader.lineNumber()) && showProgress
                            && System.nanoTime() - lastProgress >= PROGRESS_INTERVAL_NANOS) {
                        lastProgress = System.nanoTime();
                        message(entries(batch.written()) + rate(batch.written(), lastProgress - start));
                    }
                }
            } finally {
                batch.flush(); // what was read before a malformed line is written first
            }
        } catch (IOException e) {
            message(e.getMessage());
            return fail("stopped; the lines before it stay written (" + entries(batch.written())
                    + "); importing the same input again replaces them");
        }
        message("imported " + entries(batch.written()) + (showProgress ? rate(batch.written(), System.nanoTime() - start) : ""));
        return Main.EXIT_OK;
    }

    private static String rate(long entries, long nanos) {
        double seconds = Math.max(nanos / 1e9, 1e-3);
        return String.format(" in %.1f s (%,.0f entries/s)", seconds, entries / seconds);
    }

    /**
     * The entries read and not yet written, and how many were written. A full batch is written by a thread of its
     * own while the next one is read and parsed (parsing costs about as much CPU as storing), one batch at a time and
     * in order, so that a failure still stops the import at its line, with every line before it written.
     */
    private static final class Batch implements AutoCloseable {
        private final Storage storage;
        private final ExecutorService writer = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "store-import-writer");
            thread.setDaemon(true);
            return thread;
        });
        private List<StoredEntry> entries = new ArrayList<>();
        private List<Long> lineNumbers = new ArrayList<>();
        private long bytes;
        private Future<?> inFlight = CompletableFuture.completedFuture(null);
        /** Set once a batch failed (or the wait for it was interrupted). */
        private boolean failed;
        /** Entries written; only the writer thread changes it, read after {@link #await()}. */
        private volatile long written;

        Batch(Storage storage) {
            this.storage = storage;
        }

        /** Adds an entry, handing the batch to the writer once it is full; {@code true} if it did. */
        boolean add(StoredEntry entry, long lineNumber) throws IOException {
            entries.add(entry);
            lineNumbers.add(lineNumber);
            bytes += entry.key().length() * 2L + entry.size();
            if (entries.size() < BATCH_ENTRIES && bytes < BATCH_BYTES) {
                return false;
            }
            await();
            List<StoredEntry> full = entries;
            List<Long> lines = lineNumbers;
            entries = new ArrayList<>();
            lineNumbers = new ArrayList<>();
            bytes = 0;
            inFlight = writer.submit(() -> write(full, lines));
            return true;
        }

        /** Writes what is left and waits for every batch; throws the failure of the first batch that failed. */
        void flush() throws IOException {
            if (failed) {
                return; // nothing after the line that failed is written
            }
            await();
            List<StoredEntry> rest = entries;
            entries = new ArrayList<>();
            List<Long> lines = lineNumbers;
            lineNumbers = new ArrayList<>();
            write(rest, lines);
        }

        /** Waits for the batch in flight; throws its failure. */
        private void await() throws IOException {
            Future<?> waited = inFlight;
            inFlight = CompletableFuture.completedFuture(null); // a failure is thrown once
            try {
                waited.get();
            } catch (InterruptedException e) {
                failed = true;
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("Interrupted while a batch was written");
            } catch (ExecutionException e) {
                failed = true;
                if (e.getCause() instanceof IOException cause) {
                    throw cause;
                }
                throw new IOException(e.getCause().toString(), e.getCause());
            }
        }

        long written() {
            return written;
        }

        /**
         * Writes the entries in one {@link Storage#putAll}. If that fails, writes them one by one, to name the line
         * that fails: those before it are then stored.
         */
        private Void write(List<StoredEntry> batch, List<Long> lines) throws IOException {
            if (batch.isEmpty()) {
                return null;
            }
            try {
                storage.putAll(batch);
                written += batch.size();
            } catch (IOException e) {
                for (int i = 0; i < batch.size(); i++) {
                    StoredEntry entry = batch.get(i);
                    try {
                        storage.putAll(List.of(entry));
                    } catch (IOException one) {
                        throw new IOException("line " + lines.get(i) + ": could not store the key "
                                + Quoted.of(entry.key()) + ": " + one.getMessage(), one);
                    }
                    written++;
                }
            }
            return null;
        }

        /** Waits for the batch in flight, if any is left (after a failure of the reading), and stops the writer. */
        @Override
        public void close() {
            try {
                await();
            } catch (IOException e) {
                // the import already failed; its own failure is the one reported
            }
            writer.shutdown();
        }
    }
}
