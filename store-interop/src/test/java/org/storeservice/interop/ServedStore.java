package org.storeservice.interop;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.net.URI;
import java.util.Optional;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.StoredEntry;
import org.storeservice.jetty.StoreServer;

/**
 * A real {@link StoreServer} on an ephemeral loopback port, over a {@link MemoryStorage} the test keeps, so
 * that what a client stored can be read back and compared exactly.
 */
final class ServedStore implements AutoCloseable {
    /** Non-ASCII from three planes, markup characters, a tab and a line feed: all must arrive unchanged. */
    static final String TEXT = "Grüße, 日本語 \uD83D\uDE00 <a href=\"x\">&amp;</a>\t'quoted'\nline two";
    /** The byte values encodings get wrong: 0x00, 0xFF, the sign bit, ASCII controls and markup. */
    static final byte[] BYTES = {0x00, (byte) 0xFF, 0x01, 0x7F, (byte) 0x80, (byte) 0xFE, '\r', '\n', '<', '&', 0x00};

    private final MemoryStorage storage = new MemoryStorage();
    private final StoreServer server;

    ServedStore() throws IOException {
        server = StoreServer.builder().port(0).storage(storage).build().start();
    }

    /** {@code http://127.0.0.1:PORT/API/Store.asmx}. */
    URI endpoint() {
        return server.endpointUri();
    }

    /** The served WSDL's address. */
    String wsdl() {
        return endpoint() + "?WSDL";
    }

    void assertStoredText(String key, String expected) throws IOException {
        StoredEntry entry = storage.get(key).orElseThrow(() -> new AssertionError("nothing stored under " + key));
        assertEquals(EntryKind.TEXT, entry.kind(), key);
        assertEquals(expected, entry.text(), key);
    }

    void assertStoredBytes(String key, byte[] expected) throws IOException {
        StoredEntry entry = storage.get(key).orElseThrow(() -> new AssertionError("nothing stored under " + key));
        assertEquals(EntryKind.BYTES, entry.kind(), key);
        assertArrayEquals(expected, entry.bytes(), key);
    }

    void assertNothingStored(String key) throws IOException {
        assertEquals(Optional.empty(), storage.get(key), key);
    }

    /** Lower-case hex, the form the client scripts take values in (immune to the platform's argv encoding). */
    static String hex(byte[] bytes) {
        StringBuilder hex = new StringBuilder(bytes.length * 2);
        for (byte b : bytes) {
            hex.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return hex.toString();
    }

    @Override
    public void close() throws IOException {
        server.stop();
        storage.close();
    }
}
