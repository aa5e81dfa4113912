package org.storeservice.api.storage;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

class StoragesTest {

    @Test
    void memoryUriOpensTheInMemoryBackend() throws IOException {
        try (Storage storage = Storages.open("memory:")) {
            assertInstanceOf(MemoryStorage.class, storage);
        }
    }

    @Test
    void prefixMatchIsCaseInsensitive() throws IOException {
        try (Storage storage = Storages.open("MEMORY:")) {
            assertInstanceOf(MemoryStorage.class, storage);
        }
    }

    @Test
    void longestMatchingPrefixWins() throws IOException {
        try (Storage storage = Storages.open("test:special:x")) {
            assertEquals("special", ((TestProviders.Named) storage).name);
        }
        try (Storage storage = Storages.open("test:other")) {
            assertEquals("general", ((TestProviders.Named) storage).name);
        }
    }

    @Test
    void unknownSchemeNamesTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Storages.open("redis://localhost"));
        assertTrue(e.getMessage().contains("'redis://localhost'"), e.getMessage());
        assertTrue(e.getMessage().contains("memory:"), e.getMessage());
        assertTrue(e.getMessage().contains("test:special:"), e.getMessage());
    }

    @Test
    void emptyUriIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> Storages.open(""));
        assertThrows(IllegalArgumentException.class, () -> Storages.open(null));
    }

    @Test
    void knownPrefixesListsEveryProvider() {
        assertEquals(List.of("memory:", "test:", "test:special:"),
                List.copyOf(Storages.knownPrefixes(getClass().getClassLoader())));
    }
}
