package org.storeservice.api.storage;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class StoredEntryTest {
    private static final Instant T = Instant.EPOCH;

    @Test
    void bytesAreCopiedInAndOut() {
        byte[] value = {1, 2};
        StoredEntry entry = StoredEntry.bytes("k", value, T);
        value[0] = 9;
        assertArrayEquals(new byte[] {1, 2}, entry.bytes());
        entry.bytes()[1] = 9;
        assertArrayEquals(new byte[] {1, 2}, entry.bytes());
        assertEquals(2, entry.size());
    }

    @Test
    void textEntryGivesItsUtf8Bytes() {
        StoredEntry entry = StoredEntry.text("k", "é😀", T);
        assertArrayEquals("é😀".getBytes(StandardCharsets.UTF_8), entry.bytes());
        assertEquals(6, entry.size());
    }

    @Test
    void bytesEntryHasNoText() {
        assertThrows(IllegalStateException.class, () -> StoredEntry.bytes("k", new byte[0], T).text());
    }

    @Test
    void equalityIsKeyKindAndValue() {
        assertEquals(StoredEntry.text("k", "v", T), StoredEntry.text("k", "v", Instant.now()));
        assertNotEquals(StoredEntry.text("k", "v", T), StoredEntry.bytes("k", "v".getBytes(StandardCharsets.UTF_8), T));
        assertEquals(StoredEntry.bytes("k", new byte[] {1}, T).hashCode(),
                StoredEntry.bytes("k", new byte[] {1}, T).hashCode());
    }

    /** An owned array longer than its value: only the value is seen, compared and hashed. */
    @Test
    void anOwnedArrayWithSlackIsOnlyItsValue() {
        StoredEntry withSlack = StoredEntry.ownedBytes("k", new byte[] {1, 2, 3, 0, 0}, 3, T);
        StoredEntry exact = StoredEntry.bytes("k", new byte[] {1, 2, 3}, T);
        assertArrayEquals(new byte[] {1, 2, 3}, withSlack.bytes());
        assertEquals(3, withSlack.size());
        assertEquals(exact, withSlack);
        assertEquals(withSlack, exact);
        assertEquals(exact.hashCode(), withSlack.hashCode());
        assertNotEquals(StoredEntry.bytes("k", new byte[] {1, 2}, T), withSlack);
        assertEquals("StoredEntry{key='k', kind=BYTES, 3 bytes, writtenAt=1970-01-01T00:00:00Z}", withSlack.toString());
        assertThrows(IndexOutOfBoundsException.class, () -> StoredEntry.ownedBytes("k", new byte[2], 3, T));
    }
}
