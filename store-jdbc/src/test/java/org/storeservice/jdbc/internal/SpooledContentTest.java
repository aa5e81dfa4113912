package org.storeservice.jdbc.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Random;
import java.util.function.IntUnaryOperator;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.storage.StorageException;

/**
 * Reading a value into a spool: whatever the content's {@code available()} says (the codec's estimate is exact, or a
 * few bytes over; other streams say 0, too little or anything), the value read is exact, kept in memory while the spool memory
 * has room and in a file otherwise, and the memory reserved is given back on close.
 */
class SpooledContentTest {
    private static final int[] SIZES = {0, 1, SpooledContent.MEMORY_BYTES, SpooledContent.MEMORY_BYTES + 1,
        SpooledContent.MEMORY_BYTES + 2, 200_000, 1 << 20, (1 << 20) + 7};

    /** A stream of {@code bytes} whose {@code available()} is {@code estimate} applied to what is left. */
    private static InputStream content(byte[] bytes, IntUnaryOperator estimate) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int available() {
                return Math.max(0, estimate.applyAsInt(count - pos));
            }

            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 10_000)); // arrives in parts, as a body does
            }
        };
    }

    private static byte[] random(int size) {
        byte[] bytes = new byte[size];
        new Random(size).nextBytes(bytes);
        return bytes;
    }

    @Test
    void everyEstimateGivesTheExactValue(@TempDir Path spool) throws IOException {
        IntUnaryOperator[] estimates = {left -> left, left -> left + 45, left -> left / 2, left -> 0, left -> 1,
            left -> Integer.MAX_VALUE, left -> left * 3, left -> left - 1, left -> left + 1};
        for (int size : SIZES) {
            byte[] value = random(size);
            for (int e = 0; e < estimates.length; e++) {
                String what = "size " + size + ", estimate " + e;
                // no room; room for the value alone (an estimate short of it spills, with the byte that showed it); plenty
                for (long memoryBytes : new long[] {0, size, 4L << 20, 64L << 20}) {
                    SpoolMemory memory = new SpoolMemory(memoryBytes);
                    try (SpooledContent spooled = SpooledContent.read(content(value, estimates[e]), spool, 8L << 20,
                            memory)) {
                        assertEquals(size, spooled.length(), what);
                        assertArrayEquals(value, spooled.readAll(), what);
                        assertArrayEquals(value, spooled.open().readAllBytes(), what);
                        if (size <= SpooledContent.MEMORY_BYTES || memoryBytes >= 2L * size) {
                            assertTrue(spooled.inMemory(), what + ": in memory while there is room");
                        }
                        long held = spooled.inMemory() && size > SpooledContent.MEMORY_BYTES ? size : 0;
                        assertEquals(held, memory.reserved(), what + ": only the value's own size stays reserved");
                    }
                    assertEquals(0, memory.reserved(), what + ": memory given back");
                    try (Stream<Path> files = Files.list(spool)) {
                        assertEquals(0, files.count(), what + ": no spool file left");
                    }
                }
            }
        }
    }

    @Test
    void aValueOverTheLimitIsRefusedWhateverTheEstimate(@TempDir Path spool) {
        byte[] value = random(300_000);
        for (IntUnaryOperator estimate : new IntUnaryOperator[] {left -> left, left -> 0, left -> 100, left -> left - 1}) {
            SpoolMemory memory = new SpoolMemory(64L << 20);
            assertThrows(StorageException.class,
                    () -> SpooledContent.read(content(value, estimate), spool, 299_999, memory).close());
            assertEquals(0, memory.reserved());
        }
    }

    @Test
    void aSmallValueReadWholeIsHeldInReservedMemoryUntilClosed() throws IOException {
        IntUnaryOperator[] estimates = {left -> left, left -> left + 45, left -> left / 2, left -> 0, left -> left - 1};
        for (int size : new int[] {0, 1, 1000, SpooledContent.MEMORY_BYTES}) {
            byte[] value = random(size);
            for (int e = 0; e < estimates.length; e++) {
                String what = "size " + size + ", estimate " + e;
                byte[] head = SpooledContent.readHead(content(value, estimates[e]));
                assertArrayEquals(value, head, what + ": the head of a small value is all of it");
                SpoolMemory memory = new SpoolMemory(size); // room for exactly this value
                try (SpooledContent whole = SpooledContent.whole(head, 8L << 20, memory)) {
                    assertArrayEquals(value, whole.readAll(), what);
                    assertEquals(size, memory.reserved(), what + ": its size is reserved while it waits");
                }
                assertEquals(0, memory.reserved(), what + ": memory given back");
            }
        }
    }

    @Test
    void aValueThatIsNotSmallOrFindsNoRoomIsNotReadWhole() throws IOException {
        byte[] large = random(SpooledContent.MEMORY_BYTES + 1);
        byte[] head = SpooledContent.readHead(content(large, left -> left));
        assertArrayEquals(large, head, "one byte past the memory part shows the value is larger");
        SpoolMemory plenty = new SpoolMemory(64L << 20);
        assertNull(SpooledContent.whole(head, 8L << 20, plenty));
        assertEquals(0, plenty.reserved());

        SpoolMemory tooSmall = new SpoolMemory(999);
        assertNull(SpooledContent.whole(random(1000), 8L << 20, tooSmall));
        assertEquals(0, tooSmall.reserved());

        assertThrows(StorageException.class, () -> SpooledContent.whole(random(100), 99, plenty));
        assertEquals(0, plenty.reserved());
    }
}
