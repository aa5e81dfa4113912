package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.api.storage.StoredEntry;

/**
 * What {@code diff} compares of an entry: its key, its type and its value, the value held as its length and SHA-256 so
 * that a side's entries in flight cost a few dozen bytes each whatever the values' sizes. The written time is left out:
 * two stores in step wrote each value at different moments.
 */
record EntryDigest(String key, EntryKind kind, long length, byte[] sha256) {
    static EntryDigest of(StoredEntry entry) {
        byte[] value = entry.kind() == EntryKind.TEXT ? entry.text().getBytes(UTF_8) : entry.bytes();
        try {
            return new EntryDigest(entry.key(), entry.kind(), value.length, MessageDigest.getInstance("SHA-256").digest(value));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }

    /** Whether the value is the same: the same type, length and SHA-256. */
    boolean sameValue(EntryDigest other) {
        return kind == other.kind && length == other.length && Arrays.equals(sha256, other.sha256);
    }

    /** The value as a report line describes it: {@code string, 12 bytes}. */
    String describe() {
        return (kind == EntryKind.TEXT ? "string, " : "bytes, ") + length + (length == 1 ? " byte" : " bytes")
                + (kind == EntryKind.TEXT ? " UTF-8" : "");
    }
}
