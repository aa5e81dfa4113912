package org.storeservice.server;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.regex.Pattern;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;
import org.storeservice.api.storage.StoredEntry;

/**
 * One side of {@code diff}: the entries of a storage (its URI) or of an export file ({@code -} for standard input),
 * read one at a time in ascending key order ({@link String#compareTo}, as {@code Storage.scan} visits them and
 * {@code export} writes them), so that two sides are merged in one pass with memory bounded whatever their size.
 */
abstract class DiffSide implements AutoCloseable {
    /** A URI's scheme, two characters or more (so that {@code C:\dir\file} stays a file). */
    private static final Pattern SCHEME = Pattern.compile("[A-Za-z][A-Za-z0-9+.-]+:.*", Pattern.DOTALL);

    /** How the side is named in the report and messages: {@link #shown} of the argument. */
    final String name;

    private DiffSide(String argument) {
        this.name = shown(argument);
    }

    /**
     * {@code argument} as the report may print it: a storage URI without its user information and query, where a
     * PostgreSQL URI carries its password ({@code jdbc:postgresql://host/db?...}); an export file as given.
     */
    static String shown(String argument) {
        if (!SCHEME.matcher(argument).matches()) {
            return argument;
        }
        String shown = argument.replaceFirst("//[^/@?]*@", "//");
        int query = shown.indexOf('?');
        return query < 0 ? shown : shown.substring(0, query) + "?...";
    }

    /**
     * Opens {@code argument}: a storage URI ({@code sqlite:}, {@code jdbc:postgresql:}, {@code memory:}, ...), else an
     * export file, {@code -} for standard input.
     *
     * @throws IllegalArgumentException if no backend takes the URI (a usage error)
     * @throws IOException if the storage or file is not there or cannot be opened
     */
    static DiffSide open(String argument, InputStream standardInput) throws IOException {
        if (argument.equals("-")) {
            return new ExportFile(argument, standardInput, false);
        }
        if (SCHEME.matcher(argument).matches()) {
            Optional<String> missing = ExistingStorage.missing(argument);
            if (missing.isPresent()) {
                throw new IOException(missing.get() + "; diff never creates one");
            }
            return new StorageEntries(argument, Storages.open(argument));
        }
        try {
            return new ExportFile(argument, Files.newInputStream(Path.of(argument)), true);
        } catch (NoSuchFileException e) {
            // Without the cause, which Failures.describe would say instead.
            throw new IOException("no export file " + argument + " (a storage is named by its URI: sqlite:FILE, ...)");
        }
    }

    /**
     * The next entry, its key above the last one's, or {@code null} at the end.
     *
     * @throws IOException if the side cannot be read, or an export file is not in key order
     */
    abstract EntryDigest next() throws IOException;

    @Override
    public abstract void close() throws IOException;

    /** An export file: read line by line, each key checked to come after the one before. */
    private static final class ExportFile extends DiffSide {
        private final InputStream in;
        private final boolean owned;
        private final EntryLineReader reader;
        private String lastKey;

        ExportFile(String name, InputStream in, boolean owned) {
            super(name);
            this.in = in;
            this.owned = owned;
            this.reader = new EntryLineReader(in);
        }

        @Override
        EntryDigest next() throws IOException {
            Optional<StoredEntry> entry;
            try {
                entry = reader.next();
            } catch (MalformedLineException e) {
                throw new IOException(name + " line " + reader.lineNumber() + ": " + e.getMessage(), e);
            }
            if (entry.isEmpty()) {
                return null;
            }
            String key = entry.get().key();
            if (lastKey != null && key.compareTo(lastKey) <= 0) {
                throw new IOException(name + " line " + reader.lineNumber() + ": the key " + Quoted.of(key)
                        + (key.equals(lastKey) ? " again" : " after " + Quoted.of(lastKey))
                        + ": diff reads an export in key order, as export writes it; import the file into a storage"
                        + " (import --storage sqlite:FILE) and diff that");
            }
            lastKey = key;
            return EntryDigest.of(entry.get());
        }

        @Override
        public void close() throws IOException {
            if (owned) {
                in.close();
            }
        }
    }

    /**
     * A storage, scanned on a thread of its own into a small queue that this side takes from: {@code scan} calls back,
     * and the merge needs to take one entry at a time from each side. The queue holds digests, a few dozen bytes each.
     */
    private static final class StorageEntries extends DiffSide {
        private static final Object END = new Object();
        private final Storage storage;
        private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(1024);
        private final Thread scanner;
        private boolean ended;

        StorageEntries(String name, Storage storage) {
            super(name);
            this.storage = storage;
            scanner = new Thread(this::scan, "store-diff-scan");
            scanner.setDaemon(true);
            scanner.start();
        }

        private void scan() {
            Object last = END;
            try {
                storage.scan("", entry -> {
                    try {
                        queue.put(EntryDigest.of(entry));
                    } catch (InterruptedException e) {
                        throw new InterruptedIOException("diff ended before the scan");
                    }
                });
            } catch (IOException | RuntimeException e) {
                last = e;
            }
            try {
                queue.put(last);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // closed: nobody takes it
            }
        }

        @Override
        EntryDigest next() throws IOException {
            if (ended) {
                return null;
            }
            Object next;
            try {
                next = queue.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted");
            }
            if (next instanceof EntryDigest entry) {
                return entry;
            }
            ended = true;
            if (next instanceof Exception e) {
                throw new IOException("could not read " + name + ": " + Failures.describe(e), e);
            }
            return null;
        }

        @Override
        public void close() throws IOException {
            scanner.interrupt();
            try {
                scanner.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            storage.close();
        }
    }
}
