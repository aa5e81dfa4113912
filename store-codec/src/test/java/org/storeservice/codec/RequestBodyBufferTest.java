package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.storeservice.codec.wire.BodyTail;

class RequestBodyBufferTest {
    private static final Path TMP = Path.of(System.getProperty("java.io.tmpdir"));

    private static CodecLimits limits(long maxRequestBytes, int bodyMemoryBytes) {
        return CodecLimits.builder().maxRequestBytes(maxRequestBytes).bodyMemoryBytes(bodyMemoryBytes).build();
    }

    @Test
    void aSmallBodyStaysInMemoryAndReadsBackExactly() throws IOException {
        BodyMemoryBudget budget = new BodyMemoryBudget(1 << 20);
        byte[] content = bytes(700);
        try (RequestBodyBuffer buffer = new RequestBodyBuffer(limits(10_000, 4096), budget, content.length)) {
            appendInPieces(buffer, content, 7);

            assertTrue(buffer.inMemory());
            assertFalse(buffer.isFull());
            assertEquals(700, buffer.size());
            assertEquals(700, budget.reserved(), "a body of declared length gets a segment of exactly that length");
            assertArrayEquals(content, buffer.open().readAllBytes());
        }
        assertEquals(0, budget.reserved());
    }

    @Test
    void pastItsOwnMemoryABodyGoesToAFileThatCloseDeletes() throws IOException {
        BodyMemoryBudget budget = new BodyMemoryBudget(1 << 20);
        byte[] content = bytes(100_000);
        Set<Path> before = bodyFiles();
        RequestBodyBuffer buffer = new RequestBodyBuffer(limits(1_000_000, 10_000), budget, -1);
        appendInPieces(buffer, content, 999);

        assertFalse(buffer.inMemory());
        assertTrue(budget.reserved() <= 10_000, budget.toString());
        assertEquals(1, difference(bodyFiles(), before).size(), "one temporary file");
        assertArrayEquals(content, readInSmallReads(buffer.open()));

        buffer.close();
        assertEquals(Set.of(), difference(bodyFiles(), before), "the file is deleted");
        assertEquals(0, budget.reserved());
    }

    @Test
    void whenTheSharedBudgetIsSpentBodiesGoToFiles() throws IOException {
        BodyMemoryBudget budget = new BodyMemoryBudget(10_000);
        CodecLimits limits = limits(1_000_000, 1_000_000);
        byte[] content = bytes(30_000);
        try (RequestBodyBuffer first = new RequestBodyBuffer(limits, budget, -1);
                RequestBodyBuffer second = new RequestBodyBuffer(limits, budget, -1)) {
            appendInPieces(first, content, 4096);
            appendInPieces(second, content, 4096);

            assertTrue(budget.highWaterMark() <= 10_000, budget.toString());
            assertFalse(first.inMemory());
            assertArrayEquals(content, first.open().readAllBytes());
            assertArrayEquals(content, second.open().readAllBytes());
        }
        assertEquals(0, budget.reserved());
    }

    @Test
    void aZeroBudgetKeepsEveryBodyInAFile() throws IOException {
        try (RequestBodyBuffer buffer = new RequestBodyBuffer(limits(100, 100), new BodyMemoryBudget(0), -1)) {
            buffer.append(ByteBuffer.wrap(bytes(10)));
            assertFalse(buffer.inMemory());
            assertArrayEquals(bytes(10), buffer.open().readAllBytes());
        }
    }

    @Test
    void itKeepsOneBytePastTheLimitAndDropsTheRest() throws IOException {
        try (RequestBodyBuffer buffer = new RequestBodyBuffer(limits(100, 1000), new BodyMemoryBudget(1000), -1)) {
            ByteBuffer arriving = ByteBuffer.wrap(bytes(150));
            buffer.append(arriving);

            assertFalse(arriving.hasRemaining(), "every byte consumed");
            assertTrue(buffer.isFull());
            assertEquals(101, buffer.size());
            buffer.append(ByteBuffer.wrap(bytes(50)));
            assertEquals(101, buffer.size());
            assertEquals(101, buffer.open().readAllBytes().length);
        }
    }

    @Test
    void aBodyExactlyAtTheLimitIsNotFull() throws IOException {
        try (RequestBodyBuffer buffer = new RequestBodyBuffer(limits(100, 1000), new BodyMemoryBudget(1000), -1)) {
            buffer.append(ByteBuffer.wrap(bytes(100)));
            assertFalse(buffer.isFull());
        }
    }

    @Test
    void aDeclaredLengthOverTheLimitIsFullFromTheStartAndKeepsNothing() throws IOException {
        BodyMemoryBudget budget = new BodyMemoryBudget(1000);
        try (RequestBodyBuffer buffer = new RequestBodyBuffer(limits(100, 1000), budget, 101)) {
            assertTrue(buffer.isFull());
            buffer.append(ByteBuffer.wrap(bytes(101)));
            assertEquals(0, buffer.size());
            assertEquals(0, budget.highWaterMark());
        }
    }

    @Test
    void directBuffersAreCopiedToo() throws IOException {
        ByteBuffer direct = ByteBuffer.allocateDirect(300);
        direct.put(bytes(300)).flip();
        try (RequestBodyBuffer buffer = new RequestBodyBuffer(limits(1000, 100), new BodyMemoryBudget(1000), -1)) {
            buffer.append(direct);
            assertArrayEquals(bytes(300), buffer.open().readAllBytes());
        }
    }

    @Test
    void readingAfterCloseFailsAndAppendingAfterOpenIsRefused() throws IOException {
        RequestBodyBuffer buffer = new RequestBodyBuffer(limits(1000, 100), new BodyMemoryBudget(1000), -1);
        buffer.append(ByteBuffer.wrap(bytes(10)));
        InputStream body = buffer.open();
        assertThrows(IllegalStateException.class, () -> buffer.append(ByteBuffer.wrap(bytes(1))));
        assertThrows(IllegalStateException.class, buffer::open);
        buffer.close();
        buffer.close(); // idempotent
        assertThrows(IOException.class, body::read);
    }

    @Test
    void theBudgetNeverGoesOverItsCapacityAndRefusesWhatDoesNotFit() {
        BodyMemoryBudget budget = new BodyMemoryBudget(100);
        assertTrue(budget.tryReserve(60));
        assertFalse(budget.tryReserve(41));
        assertTrue(budget.tryReserve(40));
        assertEquals(100, budget.highWaterMark());
        budget.release(100);
        assertEquals(0, budget.reserved());
        assertEquals(100, budget.highWaterMark());
        assertThrows(IllegalStateException.class, () -> budget.release(1));
        assertThrows(IllegalArgumentException.class, () -> new BodyMemoryBudget(-1));
    }

    @Test
    void theCodecSharesOneBudgetAcrossItsBuffers() throws IOException {
        StoreCodec codec = StoreCodec.builder(org.mockito.Mockito.mock(org.storeservice.api.Store.class))
                .limits(CodecLimits.builder().bodyMemoryBudgetBytes(12_345).build())
                .build();
        assertEquals(12_345, codec.bodyMemoryBudget().capacity());
        try (RequestBodyBuffer buffer = codec.newRequestBodyBuffer(10)) {
            buffer.append(ByteBuffer.wrap(bytes(10)));
            assertEquals(10, codec.bodyMemoryBudget().reserved());
        }
        assertEquals(0, codec.bodyMemoryBudget().reserved());
    }

    @Test
    void aLargeBodysArrayServesTheNextLargeBodyAndItsOldBytesNeverShow() throws IOException {
        BodyMemoryBudget budget = new BodyMemoryBudget(64 << 20);
        byte[] first = bytes(1 << 20);
        byte[] second = bytes((1 << 20) - 1000); // within an eighth: the first one's array fits it
        try (RequestBodyBuffer buffer = new RequestBodyBuffer(limits(8 << 20, 8 << 20), budget, first.length)) {
            appendInPieces(buffer, first, 65_536);
            assertArrayEquals(first, buffer.open().readAllBytes());
        }
        assertEquals(1 << 20, budget.reserved(), "the kept array stays counted against the budget");
        try (RequestBodyBuffer buffer = new RequestBodyBuffer(limits(8 << 20, 8 << 20), budget, second.length)) {
            appendInPieces(buffer, second, 65_536);
            assertEquals(1 << 20, budget.reserved(), "the kept array was reused, nothing more reserved");
            InputStream in = buffer.open();
            assertEquals(second.length, in.available());
            assertArrayEquals(second, readInSmallReads(in), "exactly this body's bytes, none of the last one's");
        }
    }

    @Test
    void keptArraysGiveWayToAReservationThatWouldNotFitBesideThem() throws IOException {
        BodyMemoryBudget budget = new BodyMemoryBudget(4 << 20);
        try (RequestBodyBuffer buffer = new RequestBodyBuffer(limits(8 << 20, 8 << 20), budget, 1 << 20)) {
            appendInPieces(buffer, bytes(1 << 20), 65_536);
        }
        assertEquals(1 << 20, budget.reserved(), "kept, up to a quarter of the capacity");
        byte[] large = bytes(7 << 19); // 3.5 MiB: too far from the kept array's size to reuse; fits once it is dropped
        try (RequestBodyBuffer buffer = new RequestBodyBuffer(limits(8 << 20, 8 << 20), budget, large.length)) {
            appendInPieces(buffer, large, 65_536);
            assertTrue(buffer.inMemory(), budget.toString());
            assertEquals(7 << 19, budget.reserved(), "the kept array was dropped to make room");
            assertArrayEquals(large, buffer.open().readAllBytes());
        }
        assertEquals(0, budget.reserved(), "over a quarter of the capacity: given back, not kept");
        assertTrue(budget.highWaterMark() <= budget.capacity());
    }

    @Test
    void aLargeBodyWithNoRoomInTheBudgetAndNothingKeptGoesToAFile() throws IOException {
        BodyMemoryBudget budget = new BodyMemoryBudget(1 << 20);
        byte[] content = bytes(2 << 20); // a large array is wanted, but the budget has 1 MiB and keeps nothing yet
        try (RequestBodyBuffer buffer = new RequestBodyBuffer(limits(8 << 20, 8 << 20), budget, content.length)) {
            appendInPieces(buffer, content, 65_536);
            assertFalse(buffer.inMemory());
            assertEquals(0, budget.reserved(), budget.toString());
            assertArrayEquals(content, readInSmallReads(buffer.open()));
        }
        assertEquals(0, budget.reserved());
    }

    private static void appendInPieces(RequestBodyBuffer buffer, byte[] content, int piece) throws IOException {
        for (int i = 0; i < content.length; i += piece) {
            buffer.append(ByteBuffer.wrap(content, i, Math.min(piece, content.length - i)));
        }
    }

    private static byte[] readInSmallReads(InputStream in) throws IOException {
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        byte[] small = new byte[333];
        for (int n; (n = in.read(small)) >= 0; ) {
            out.write(small, 0, n);
        }
        return out.toByteArray();
    }

    private static byte[] bytes(int n) {
        byte[] bytes = new byte[n];
        new Random(n).nextBytes(bytes);
        return bytes;
    }

    private static Set<Path> bodyFiles() throws IOException {
        try (Stream<Path> files = Files.list(TMP)) {
            return files.filter(p -> p.getFileName().toString().startsWith("store-body-")).collect(Collectors.toSet());
        }
    }

    private static Set<Path> difference(Set<Path> after, Set<Path> before) {
        return after.stream().filter(p -> !before.contains(p)).collect(Collectors.toSet());
    }

    /**
     * The adapters' reading policy, in one place: a body declared over twice the limit, or over the limit and not yet
     * sent (Expect: 100-continue), is answered without reading; one that arrives is read and dropped until twice the
     * limit, then answered.
     */
    @Test
    void theAdaptersReadAndDropUpToTwiceTheLimit() throws Exception {
        BodyMemoryBudget budget = new BodyMemoryBudget(1 << 20);
        try (RequestBodyBuffer declaredFar = new RequestBodyBuffer(limits(100, 100), budget, 201);
                RequestBodyBuffer declaredOver = new RequestBodyBuffer(limits(100, 100), budget, 150);
                RequestBodyBuffer withinLimit = new RequestBodyBuffer(limits(100, 100), budget, 100);
                RequestBodyBuffer unknown = new RequestBodyBuffer(limits(100, 100), budget, -1)) {
            assertTrue(declaredFar.answerWithoutReading(false) && declaredFar.declaredTooLongToRead());
            assertFalse(declaredOver.answerWithoutReading(false), "read and dropped: the client gets the fault");
            assertTrue(declaredOver.answerWithoutReading(true), "not sent yet: no go-ahead for it");
            assertFalse(declaredOver.declaredTooLongToRead());
            assertFalse(withinLimit.answerWithoutReading(true));

            unknown.append(ByteBuffer.wrap(new byte[150]));
            assertTrue(unknown.isFull());
            assertFalse(unknown.readEnough(), "150 of up to 200 read");
            unknown.append(ByteBuffer.wrap(new byte[51]));
            assertTrue(unknown.readEnough(), "201 read: past twice the limit");
            assertEquals(201, unknown.received());
            assertEquals(101, unknown.size(), "the limit and one byte kept");
        }
    }

    /**
     * The body's last bytes show while they are all in memory, across segments of a body of unknown length and in
     * one of a declared one; not once any went to a file, nor after close.
     */
    @Test
    void theLastBytesShowWhileTheBodyIsInMemory() throws IOException {
        BodyMemoryBudget budget = new BodyMemoryBudget(1 << 24);
        byte[] content = bytes(100_000);
        for (long declared : new long[] {-1, content.length}) {
            RequestBodyBuffer buffer = new RequestBodyBuffer(limits(1_000_000, 200_000), budget, declared);
            appendInPieces(buffer, content, 999);
            InputStream in = buffer.open();
            for (int wanted : new int[] {1, 7, 512, 4096 + 1, content.length, content.length + 10}) {
                byte[] into = new byte[wanted];
                int n = ((BodyTail) in).copyTail(into);
                int expected = Math.min(wanted, content.length);
                assertEquals(expected, n, "declared " + declared + ", wanted " + wanted);
                assertArrayEquals(Arrays.copyOfRange(content, content.length - expected, content.length),
                        Arrays.copyOf(into, n), "declared " + declared + ", wanted " + wanted);
            }
            in.readNBytes(50_000); // reading does not change what the end is
            byte[] last = new byte[3];
            assertEquals(3, ((BodyTail) in).copyTail(last));
            assertArrayEquals(Arrays.copyOfRange(content, content.length - 3, content.length), last);
            buffer.close();
            assertEquals(0, ((BodyTail) in).copyTail(last), "closed");
        }
        try (RequestBodyBuffer spilled = new RequestBodyBuffer(limits(1_000_000, 10_000), budget, -1)) {
            appendInPieces(spilled, content, 999);
            assertFalse(spilled.inMemory());
            assertEquals(0, ((BodyTail) spilled.open()).copyTail(new byte[10]), "in a file");
        }
    }

    /**
     * A body read to its end gives its memory back at once, before close (a store may wait for its commit before the
     * answer is written); reading on, and closing, give nothing back twice.
     */
    @Test
    void readingToTheEndGivesTheMemoryBackAtOnce() throws IOException {
        BodyMemoryBudget budget = new BodyMemoryBudget(1 << 24);
        for (int size : new int[] {100_000, 600_000}) { // a plain segment, and an array kept for the next large body
            byte[] content = bytes(size);
            RequestBodyBuffer buffer = new RequestBodyBuffer(limits(1_000_000, 1_000_000), budget, size);
            appendInPieces(buffer, content, 4096);
            long before = budget.reserved();
            InputStream in = buffer.open();
            assertArrayEquals(content, in.readNBytes(size));
            assertEquals(before, budget.reserved(), size + ": held until the end is read");
            assertEquals(-1, in.read());
            long kept = size >= BodyMemoryBudget.POOLED_ARRAY_BYTES ? size : 0; // kept arrays stay counted
            assertEquals(kept, budget.reserved(), size + ": given back at the end");
            assertEquals(-1, in.read(new byte[10], 0, 10));
            assertEquals(0, in.available());
            assertEquals(0, ((BodyTail) in).copyTail(new byte[10]), "no tail once given back");
            buffer.close();
            assertEquals(kept, budget.reserved(), size + ": close gives nothing back twice");
        }
    }
}
