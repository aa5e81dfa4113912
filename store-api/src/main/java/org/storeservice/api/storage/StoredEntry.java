package org.storeservice.api.storage;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;

/**
 * One stored entry: its key, whether it was written as text or bytes, its value, and when it was written.
 *
 * <p>Immutable and thread-safe (byte values are copied in and out).
 */
public final class StoredEntry {
    private final String key;
    private final EntryKind kind;
    private final String text;
    /** A byte value is {@code bytes[0, length)}; the array may be longer (see {@link #ownedBytes}). */
    private final byte[] bytes;
    private final int length;
    private final Instant writtenAt;

    private StoredEntry(String key, EntryKind kind, String text, byte[] bytes, int length, Instant writtenAt) {
        this.key = Objects.requireNonNull(key, "key");
        this.kind = kind;
        this.text = text;
        this.bytes = bytes;
        this.length = length;
        this.writtenAt = Objects.requireNonNull(writtenAt, "writtenAt");
    }

    /**
     * {@return an entry written as text}
     *
     * @param key the entry's key
     * @param value the text
     * @param writtenAt when the backend recorded the write
     */
    public static StoredEntry text(String key, String value, Instant writtenAt) {
        return new StoredEntry(key, EntryKind.TEXT, Objects.requireNonNull(value, "value"), null, 0, writtenAt);
    }

    /**
     * {@return an entry written as bytes}
     *
     * @param key the entry's key
     * @param value the bytes, copied
     * @param writtenAt when the backend recorded the write
     */
    public static StoredEntry bytes(String key, byte[] value, Instant writtenAt) {
        byte[] copy = Objects.requireNonNull(value, "value").clone();
        return new StoredEntry(key, EntryKind.BYTES, null, copy, copy.length, writtenAt);
    }

    /**
     * An entry written as bytes, {@code value[0, length)}, that takes the array over without copying it: for a
     * storage in this package that has just read the value into an array of its own and never touches it
     * again (so the entry stays immutable to everyone else). The array may be a little longer than the value.
     */
    static StoredEntry ownedBytes(String key, byte[] value, int length, Instant writtenAt) {
        Objects.checkFromIndexSize(0, length, Objects.requireNonNull(value, "value").length);
        return new StoredEntry(key, EntryKind.BYTES, null, value, length, writtenAt);
    }

    /** {@return the entry's key} */
    public String key() {
        return key;
    }

    /** {@return whether the entry was written as text or as bytes} */
    public EntryKind kind() {
        return kind;
    }

    /**
     * {@return the text value}
     *
     * @throws IllegalStateException if the entry was written as bytes
     */
    public String text() {
        if (kind != EntryKind.TEXT) {
            throw new IllegalStateException("Entry '" + key + "' was written as bytes, not text");
        }
        return text;
    }

    /** {@return the value as bytes: the bytes written, or the UTF-8 encoding of the text} A fresh copy. */
    public byte[] bytes() {
        return kind == EntryKind.BYTES ? Arrays.copyOf(bytes, length) : text.getBytes(StandardCharsets.UTF_8);
    }

    /** {@return the value's size in bytes: raw bytes, or UTF-8 bytes of the text} */
    public long size() {
        return kind == EntryKind.BYTES ? length : text.getBytes(StandardCharsets.UTF_8).length;
    }

    /** {@return when the backend recorded the write} */
    public Instant writtenAt() {
        return writtenAt;
    }

    /** Equal when key, kind and value are equal; the write time is not compared. */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        return o instanceof StoredEntry other && key.equals(other.key) && kind == other.kind
                && Objects.equals(text, other.text) && (kind == EntryKind.TEXT
                        || Arrays.equals(bytes, 0, length, other.bytes, 0, other.length));
    }

    @Override
    public int hashCode() {
        int bytesHash = 1; // as Arrays.hashCode of the value
        for (int i = 0; i < length; i++) {
            bytesHash = 31 * bytesHash + bytes[i];
        }
        return Objects.hash(key, kind, text, bytesHash);
    }

    @Override
    public String toString() {
        String value = kind == EntryKind.TEXT ? text.length() + " chars" : length + " bytes";
        return "StoredEntry{key='" + key + "', kind=" + kind + ", " + value + ", writtenAt=" + writtenAt + '}';
    }
}
