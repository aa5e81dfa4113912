package org.storeservice.shadow;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.storeservice.codec.BodyMemoryBudget;

class BodyCopyTest {
    private static byte[] bytes(int n) {
        byte[] bytes = new byte[n];
        new Random(n).nextBytes(bytes);
        return bytes;
    }

    private static byte[] read(BodyCopy copy) throws Exception {
        try (InputStream in = copy.openStream()) {
            return in.readAllBytes();
        }
    }

    @Test
    void aBodyWithinTheMemoryBudgetStaysInMemoryAndReadsBackWhole() throws Exception {
        BodyMemoryBudget memory = new BodyMemoryBudget(1 << 20);
        byte[] body = bytes(100_000);
        try (BodyCopy copy = new BodyCopy(memory, 1 << 20, -1)) {
            for (int at = 0; at < body.length; at += 7_000) {
                copy.append(ByteBuffer.wrap(body, at, Math.min(7_000, body.length - at)));
            }
            assertArrayEquals(body, read(copy));
            assertArrayEquals(body, read(copy), "read as often as needed");
            assertEquals(body.length, copy.content().getLength());
            assertTrue(memory.reserved() >= body.length);
        }
        assertEquals(0, memory.reserved(), "given back on close");
    }

    @Test
    void aBodyPastTheBudgetMovesToAFileWhole() throws Exception {
        BodyMemoryBudget memory = new BodyMemoryBudget(16 * 1024);
        byte[] body = bytes(200_000);
        try (BodyCopy copy = new BodyCopy(memory, 1 << 20, body.length)) {
            copy.append(ByteBuffer.wrap(body, 0, 10_000));
            copy.append(ByteBuffer.wrap(body, 10_000, body.length - 10_000));
            assertEquals(0, memory.reserved(), "nothing held in memory once in the file");
            assertArrayEquals(body, read(copy));
            assertEquals(body.length, copy.content().getLength());
        }
    }

    @Test
    void saysWhenMoreWouldPassItsLimit() {
        try (BodyCopy copy = new BodyCopy(new BodyMemoryBudget(1 << 20), 10, -1)) {
            assertFalse(copy.wouldOverflow(10));
            assertTrue(copy.wouldOverflow(11));
        }
    }
}
