package org.storeservice.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verifyNoInteractions;
import static org.mockito.Mockito.when;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StorageException;
import org.storeservice.api.storage.StoredEntry;

class DefaultStoreTest {
    private final MemoryStorage storage = new MemoryStorage();
    private final DefaultStore store = DefaultStore.of(storage);

    @Test
    void writeStringStoresText() throws IOException {
        assertEquals(Status.SUCCESS, store.writeString("k", "v"));
        StoredEntry entry = storage.get("k").orElseThrow();
        assertEquals(EntryKind.TEXT, entry.kind());
        assertEquals("v", entry.text());
    }

    @Test
    void writeBytesStoresBytes() throws IOException {
        byte[] content = {0, 1, (byte) 0xff, 0};
        assertEquals(Status.SUCCESS, store.writeBytes("k", content));
        StoredEntry entry = storage.get("k").orElseThrow();
        assertEquals(EntryKind.BYTES, entry.kind());
        assertArrayEquals(content, entry.bytes());
    }

    @Test
    void emptyValueAndEmptyContentAreStoredAsEmpty() throws IOException {
        assertEquals(Status.SUCCESS, store.writeString("s", ""));
        assertEquals(Status.SUCCESS, store.writeBytes("b", new byte[0]));
        assertEquals("", storage.get("s").orElseThrow().text());
        assertArrayEquals(new byte[0], storage.get("b").orElseThrow().bytes());
    }

    @Test
    void missingOrEmptyKeyIsAnError() throws IOException {
        assertEquals(Status.ERROR, store.writeString(null, "v"));
        assertEquals(Status.ERROR, store.writeString("", "v"));
        assertEquals(Status.ERROR, store.writeBytes(null, new byte[] {1}));
        assertEquals(Status.ERROR, store.writeBytes("", new byte[] {1}));
        assertEmpty();
    }

    @Test
    void missingValueOrContentIsAnError() throws IOException {
        assertEquals(Status.ERROR, store.writeString("k", null));
        assertEquals(Status.ERROR, store.writeBytes("k", (byte[]) null));
        assertEquals(Status.ERROR, store.writeBytes("k", (InputStream) null));
        assertEmpty();
    }

    @Test
    void rewriteReplacesByDefault() throws IOException {
        assertEquals(Status.SUCCESS, store.writeString("k", "first"));
        assertEquals(Status.SUCCESS, store.writeBytes("k", new byte[] {7}));
        StoredEntry entry = storage.get("k").orElseThrow();
        assertEquals(EntryKind.BYTES, entry.kind());
        assertArrayEquals(new byte[] {7}, entry.bytes());
    }

    @Test
    void rejectPolicyRefusesOverwritesAndKeepsTheFirstValue() throws IOException {
        DefaultStore rejecting = DefaultStore.builder(storage).overwritePolicy(OverwritePolicy.REJECT).build();
        assertEquals(Status.SUCCESS, rejecting.writeString("k", "first"));
        assertEquals(Status.ERROR, rejecting.writeString("k", "second"));
        assertEquals(Status.ERROR, rejecting.writeBytes("k", new byte[] {1}));
        assertEquals("first", storage.get("k").orElseThrow().text());
    }

    @Test
    void keyLengthLimitIsExact() throws IOException {
        DefaultStore limited = DefaultStore.builder(storage)
                .limits(StoreLimits.builder().maxKeyLength(5).build()).build();
        assertEquals(Status.SUCCESS, limited.writeString("12345", "v"));
        assertEquals(Status.ERROR, limited.writeString("123456", "v"));
        assertEquals(Status.ERROR, limited.writeBytes("123456", new byte[] {1}));
        assertTrue(storage.get("123456").isEmpty());
    }

    @Test
    void textValueLimitCountsUtf8BytesExactly() throws IOException {
        DefaultStore limited = DefaultStore.builder(storage)
                .limits(StoreLimits.builder().maxValueBytes(4).build()).build();
        assertEquals(Status.SUCCESS, limited.writeString("a", "é€".substring(0, 1) + "é")); // 2 + 2 bytes
        assertEquals(Status.ERROR, limited.writeString("b", "éé" + "x")); // 5 bytes
        assertEquals(Status.SUCCESS, limited.writeString("c", "😀")); // 4 bytes
        assertTrue(storage.get("b").isEmpty());
    }

    @Test
    void byteContentLimitIsExactAndOverLimitKeepsThePreviousValue() throws IOException {
        DefaultStore limited = DefaultStore.builder(storage)
                .limits(StoreLimits.builder().maxValueBytes(8).build()).build();
        assertEquals(Status.SUCCESS, limited.writeBytes("k", new byte[8]));
        assertEquals(Status.ERROR, limited.writeBytes("k", new byte[9]));
        assertArrayEquals(new byte[8], storage.get("k").orElseThrow().bytes());
    }

    /** A storage may size its array from {@code available()}: a content claiming more than the limit gets no more. */
    @Test
    void contentClaimingMoreThanTheLimitIsSizedByTheLimit() throws IOException {
        DefaultStore limited = DefaultStore.builder(storage)
                .limits(StoreLimits.builder().maxValueBytes(8).build()).build();
        InputStream boasting = new ByteArrayInputStream(new byte[] {1, 2, 3}) {
            @Override
            public synchronized int available() {
                return Integer.MAX_VALUE;
            }
        };
        assertEquals(Status.SUCCESS, limited.writeBytes("k", boasting));
        assertArrayEquals(new byte[] {1, 2, 3}, storage.get("k").orElseThrow().bytes());
    }

    @Test
    void loneSurrogatesInKeysOrTextAreErrorsSoNoBackendStoresThemAltered() throws IOException {
        assertEquals(Status.ERROR, store.writeString("\uD800", "v"));
        assertEquals(Status.ERROR, store.writeBytes("a\uDC00", new byte[] {1}));
        assertEquals(Status.ERROR, store.writeString("k", "x\uD83D"));
        assertEmpty();
        assertEquals(Status.SUCCESS, store.writeString("😀", "😀 ok"));
    }

    @Test
    void storageFailureIsAnErrorNotAnException() throws IOException {
        Storage failing = mock(Storage.class);
        when(failing.putTextAsync(anyString(), anyString(), any(), any())).thenCallRealMethod();
        when(failing.putText(anyString(), anyString(), any())).thenThrow(new StorageException("disk full"));
        when(failing.putBytesAsync(anyString(), any(InputStream.class), any(), any())).thenCallRealMethod();
        when(failing.putBytes(anyString(), any(InputStream.class), any())).thenThrow(new StorageException("down"));
        DefaultStore failingStore = DefaultStore.of(failing);
        assertEquals(Status.ERROR, failingStore.writeString("k", "v"));
        assertEquals(Status.ERROR, failingStore.writeBytes("k", new byte[] {1}));
    }

    @Test
    void unexpectedRuntimeFailureOfStorageIsAnError() throws IOException {
        Storage failing = mock(Storage.class);
        when(failing.putTextAsync(anyString(), anyString(), any(), any())).thenCallRealMethod();
        when(failing.putText(anyString(), anyString(), any())).thenThrow(new IllegalStateException("bug"));
        assertEquals(Status.ERROR, DefaultStore.of(failing).writeString("k", "v"));
    }

    @Test
    void invalidInputNeverReachesStorage() {
        Storage untouched = mock(Storage.class);
        DefaultStore guarded = DefaultStore.of(untouched);
        guarded.writeString("", "v");
        guarded.writeString("k", null);
        guarded.writeBytes(null, new byte[0]);
        verifyNoInteractions(untouched);
    }

    @Test
    void brokenContentStreamIsTheCallersFailureAndStoresNothing() throws IOException {
        IOException broken = new IOException("invalid base64 at offset 3");
        InputStream content = new SequenceInputStream(new ByteArrayInputStream(new byte[] {1, 2, 3}),
                new InputStream() {
                    @Override
                    public int read() throws IOException {
                        throw broken;
                    }
                });
        ContentStreamException thrown = assertThrows(ContentStreamException.class,
                () -> store.writeBytes("k", content));
        assertSame(broken, thrown.getCause());
        assertTrue(storage.get("k").isEmpty());
    }

    @Test
    void reportsItsConfiguration() {
        StoreLimits limits = StoreLimits.builder().maxKeyLength(3).build();
        DefaultStore configured = DefaultStore.builder(storage).limits(limits)
                .overwritePolicy(OverwritePolicy.REJECT).build();
        assertSame(limits, configured.limits());
        assertEquals(OverwritePolicy.REJECT, configured.overwritePolicy());
    }

    private void assertEmpty() throws IOException {
        List<StoredEntry> entries = new ArrayList<>();
        storage.scan("", entries::add);
        assertEquals(List.of(), entries, "nothing should have been stored");
    }
}
