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
    private final byte[] bytes;
    private final Instant writtenAt;

    private StoredEntry(String key, EntryKind kind, String text, byte[] bytes, Instant writtenAt) {
        this.key = Objects.requireNonNull(key, "key");
        this.kind = kind;
        this.text = text;
        this.bytes = bytes;
        this.writtenAt = Objects.requireNonNull(writtenAt, "writtenAt");
    }

    /** An entry written as text. */
    public static StoredEntry text(String key, String value, Instant writtenAt) {
        return new StoredEntry(key, EntryKind.TEXT, Objects.requireNonNull(value, "value"), null, writtenAt);
    }

    /** An entry written as bytes; {@code value} is copied. */
    public static StoredEntry bytes(String key, byte[] value, Instant writtenAt) {
        return new StoredEntry(key, EntryKind.BYTES, null, Objects.requireNonNull(value, "value").clone(), writtenAt);
    }

    /**
     * An entry written as bytes that takes {@code value} over without copying it: for a storage in this
     * package that has just read the value into an array of its own and never touches it again (so the
     * entry stays immutable to everyone else).
     */
    static StoredEntry ownedBytes(String key, byte[] value, Instant writtenAt) {
        return new StoredEntry(key, EntryKind.BYTES, null, Objects.requireNonNull(value, "value"), writtenAt);
    }

    public String key() {
        return key;
    }

    public EntryKind kind() {
        return kind;
    }

    /**
     * The text value.
     *
     * @throws IllegalStateException if the entry was written as bytes
     */
    public String text() {
        if (kind != EntryKind.TEXT) {
            throw new IllegalStateException("Entry '" + key + "' was written as bytes, not text");
        }
        return text;
    }

    /** The value as bytes: the bytes written, or the UTF-8 encoding of the text. A fresh copy. */
    public byte[] bytes() {
        return kind == EntryKind.BYTES ? bytes.clone() : text.getBytes(StandardCharsets.UTF_8);
    }

    /** The value's size in bytes: raw bytes, or UTF-8 bytes of the text. */
    public long size() {
        return kind == EntryKind.BYTES ? bytes.length : text.getBytes(StandardCharsets.UTF_8).length;
    }

    /** When the backend recorded the write. */
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
                && Objects.equals(text, other.text) && Arrays.equals(bytes, other.bytes);
    }

    @Override
    public int hashCode() {
        return Objects.hash(key, kind, text, Arrays.hashCode(bytes));
    }

    @Override
    public String toString() {
        String value = kind == EntryKind.TEXT ? text.length() + " chars" : bytes.length + " bytes";
        return "StoredEntry{key='" + key + "', kind=" + kind + ", " + value + ", writtenAt=" + writtenAt + '}';
    }
}
