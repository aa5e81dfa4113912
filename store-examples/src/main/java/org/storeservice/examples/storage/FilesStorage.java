package org.storeservice.examples.storage;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.api.storage.EntryVisitor;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StorageException;
import org.storeservice.api.storage.StoredEntry;

/**
 * An example {@link Storage}: one file per key in a directory, opened by the URI {@code files:DIR}.
 *
 * <p>How it keeps the contract:
 * <ul>
 *   <li><b>Atomic writes.</b> Each write goes to a temporary file in the same directory, is forced to disk,
 *       and is then renamed over the entry's file ({@code ATOMIC_MOVE}). A reader opens either the old file
 *       or the new one, never a half-written one; a write that fails deletes its temporary file.</li>
 *   <li><b>Reject without a race.</b> With {@link OverwritePolicy#REJECT} the temporary file is hard-linked to
 *       the entry's name, which fails atomically if the name exists.</li>
 *   <li><b>Thread-safe</b> without locks: every write is a rename or a link, which the file system
 *       serialises; the directory holds the only state.</li>
 *   <li><b>Scan in key order.</b> File names are hashes (keys may hold any character and be longer than a
 *       file name may be), so a scan reads each file's key, sorts the keys, then reads the entries one at a
 *       time. Only the keys are held in memory.</li>
 *   <li><b>Never stored altered.</b> Keys and text are kept as UTF-8, which cannot encode a lone UTF-16
 *       surrogate (Java would write '?', and two keys would then share a file): such a key or text is refused
 *       with a {@link StorageException}, as the SQL backends refuse it.</li>
 * </ul>
 *
 * <p>File format: a version byte, the kind ({@code T} or {@code B}), the write time in epoch milliseconds,
 * the key (length-prefixed UTF-8), then the value's bytes (UTF-8 for text) to the end of the file.
 *
 * <p>A crash during a write can leave a {@code .tmp-*} file behind: never read, harmless, and safe to delete
 * while no process uses the directory (they are not deleted on open, since another instance may be writing).
 */
public final class FilesStorage implements Storage {
    private static final int FORMAT_VERSION = 1;
    private static final String SUFFIX = ".entry";
    private static final String TEMP_PREFIX = ".tmp-";

    private final Path directory;
    private final Clock clock;
    private volatile boolean closed;

    /** A storage in {@code directory}, created if missing. */
    public FilesStorage(Path directory) throws IOException {
        this(directory, Clock.systemUTC());
    }

    /** A storage in {@code directory} that stamps writes with {@code clock}'s time. */
    public FilesStorage(Path directory, Clock clock) throws IOException {
        this.directory = Files.createDirectories(directory);
        this.clock = clock;
    }

    @Override
    public boolean putText(String key, String value, OverwritePolicy policy) throws IOException {
        byte[] bytes = utf8(value, "Text");
        return write(key, EntryKind.TEXT, out -> out.write(bytes), policy);
    }

    @Override
    public boolean putBytes(String key, InputStream content, OverwritePolicy policy) throws IOException {
        // Streamed straight to the file: the content is never held whole in memory.
        return write(key, EntryKind.BYTES, content::transferTo, policy);
    }

    private boolean write(String key, EntryKind kind, ValueWriter value, OverwritePolicy policy) throws IOException {
        ensureOpen();
        byte[] keyBytes = utf8(key, "Key");
        Path target = fileFor(keyBytes);
        if (policy == OverwritePolicy.REJECT && Files.exists(target)) {
            return false; // cheap early answer; the link below still decides atomically
        }
        Path temp = Files.createTempFile(directory, TEMP_PREFIX, "");
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.WRITE);
                 DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Channels.newOutputStream(channel)))) {
                writeHeader(out, keyBytes, kind);
                value.writeTo(out);
                out.flush();
                channel.force(true); // on disk before it becomes visible under the entry's name
            }
            if (policy == OverwritePolicy.REJECT) {
                try {
                    Files.createLink(target, temp);
                } catch (FileAlreadyExistsException exists) {
                    return false;
                }
            } else {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
            }
            syncDirectory();
            return true;
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private void writeHeader(DataOutputStream out, byte[] keyBytes, EntryKind kind) throws IOException {
        out.writeByte(FORMAT_VERSION);
        out.writeByte(kind == EntryKind.TEXT ? 'T' : 'B');
        out.writeLong(clock.millis());
        out.writeInt(keyBytes.length);
        out.write(keyBytes);
    }

    @Override
    public Optional<StoredEntry> get(String key) throws IOException {
        ensureOpen();
        if (!UTF_8.newEncoder().canEncode(key)) {
            return Optional.empty(); // no such key can have been stored
        }
        try {
            return Optional.of(read(fileFor(key.getBytes(UTF_8))));
        } catch (NoSuchFileException absent) {
            return Optional.empty();
        }
    }

    /** Removes the entry's file, then syncs the directory so that the removal survives a crash as a write does. */
    @Override
    public boolean delete(String key) throws IOException {
        ensureOpen();
        if (!UTF_8.newEncoder().canEncode(key)) {
            return false; // no such key can have been stored
        }
        if (!Files.deleteIfExists(fileFor(key.getBytes(UTF_8)))) {
            return false;
        }
        syncDirectory();
        return true;
    }

    @Override
    public void scan(String keyPrefix, EntryVisitor visitor) throws IOException {
        ensureOpen();
        Map<String, Path> keys = new TreeMap<>(); // String order: UTF-16 code units, as the contract asks
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + SUFFIX)) {
            for (Path file : files) {
                try {
                    String key = readKey(file);
                    if (key.startsWith(keyPrefix)) {
                        keys.put(key, file);
                    }
                } catch (NoSuchFileException replacedMeanwhile) {
                    // Renamed over while listing: its key is listed under the same name anyway.
                }
            }
        }
        for (Map.Entry<String, Path> entry : keys.entrySet()) {
            try {
                visitor.visit(read(entry.getValue()));
            } catch (NoSuchFileException goneMeanwhile) {
                // Entries written or removed during a scan may or may not be visited.
            }
        }
    }

    private static StoredEntry read(Path file) throws IOException {
        try (DataInputStream in = new DataInputStream(Files.newInputStream(file))) {
            Header header = Header.read(in, file);
            byte[] value = in.readAllBytes();
            return header.kind == EntryKind.TEXT
                    ? StoredEntry.text(header.key, new String(value, UTF_8), header.writtenAt)
                    : StoredEntry.bytes(header.key, value, header.writtenAt);
        }
    }

    private static String readKey(Path file) throws IOException {
        try (DataInputStream in = new DataInputStream(Files.newInputStream(file))) {
            return Header.read(in, file).key;
        }
    }

    /** {@code text} in UTF-8, or a {@link StorageException} if it holds a lone surrogate, which UTF-8 cannot encode. */
    private static byte[] utf8(String text, String what) throws StorageException {
        try {
            ByteBuffer encoded = UTF_8.newEncoder().encode(CharBuffer.wrap(text)); // reports, never replaces
            byte[] bytes = new byte[encoded.remaining()];
            encoded.get(bytes);
            return bytes;
        } catch (CharacterCodingException e) {
            throw new StorageException(what + " contains a lone UTF-16 surrogate, which UTF-8 cannot encode");
        }
    }

    private Path fileFor(byte[] keyBytes) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(keyBytes);
            return directory.resolve(HexFormat.of().formatHex(hash) + SUFFIX);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is required of every Java platform", e);
        }
    }

    private void syncDirectory() {
        // Makes the rename itself durable. Not every platform can open a directory; there the rename is as
        // durable as the file system makes it on its own.
        try (FileChannel dir = FileChannel.open(directory, StandardOpenOption.READ)) {
            dir.force(true);
        } catch (IOException | UnsupportedOperationException notSupported) {
            // best effort, see above
        }
    }

    private void ensureOpen() throws StorageException {
        if (closed) {
            throw new StorageException("FilesStorage " + directory + " is closed");
        }
    }

    /** Nothing to release: every operation opens and closes its own files. Later calls fail. */
    @Override
    public void close() {
        closed = true;
    }

    @Override
    public String toString() {
        return "FilesStorage{" + directory + '}';
    }

    /** Writes a value's bytes after the header. */
    @FunctionalInterface
    private interface ValueWriter {
        void writeTo(OutputStream out) throws IOException;
    }

    /** The fixed part of an entry's file. */
    private static final class Header {
        final EntryKind kind;
        final Instant writtenAt;
        final String key;

        private Header(EntryKind kind, Instant writtenAt, String key) {
            this.kind = kind;
            this.writtenAt = writtenAt;
            this.key = key;
        }

        static Header read(DataInputStream in, Path file) throws IOException {
            try {
                int version = in.readUnsignedByte();
                int kind = in.readUnsignedByte();
                if (version != FORMAT_VERSION || (kind != 'T' && kind != 'B')) {
                    throw new StorageException("Not an entry file of this format: " + file);
                }
                Instant writtenAt = Instant.ofEpochMilli(in.readLong());
                int keyLength = in.readInt();
                if (keyLength < 0 || keyLength > 1 << 20) {
                    throw new StorageException("Corrupt entry file: " + file);
                }
                byte[] key = in.readNBytes(keyLength);
                if (key.length != keyLength) {
                    throw new EOFException("Truncated entry file: " + file);
                }
                return new Header(kind == 'T' ? EntryKind.TEXT : EntryKind.BYTES, writtenAt, new String(key, UTF_8));
            } catch (EOFException e) {
                throw new StorageException("Truncated entry file: " + file, e);
            }
        }
    }
}
