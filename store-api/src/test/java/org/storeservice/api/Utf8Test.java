package org.storeservice.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class Utf8Test {

    @ParameterizedTest
    @ValueSource(strings = {"", "abc", "é", "€", "😀", "a😀b", "\uD800", "x\uDC00y", "\uD83D", "שלום", "\u0000"})
    void encodedLengthMatchesJavaEncoder(String text) {
        long expected = text.getBytes(StandardCharsets.UTF_8).length;
        assertEquals(expected, Utf8.encodedLength(text));
        assertFalse(Utf8.exceeds(text, expected));
        if (expected > 0) {
            assertTrue(Utf8.exceeds(text, expected - 1));
        }
    }

    @Test
    void wellFormedMeansNoLoneSurrogate() {
        assertTrue(Utf8.isWellFormed(""));
        assertTrue(Utf8.isWellFormed("a😀b"));
        assertFalse(Utf8.isWellFormed("\uD800"));
        assertFalse(Utf8.isWellFormed("\uDC00a"));
        assertFalse(Utf8.isWellFormed("a\uD83D"));
        assertFalse(Utf8.isWellFormed("\uDE00\uD83D"));
    }
}
