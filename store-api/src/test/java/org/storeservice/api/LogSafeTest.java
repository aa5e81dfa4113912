package org.storeservice.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class LogSafeTest {

    @Test
    void escapesControlCharactersSoALogLineCannotBeForged() {
        assertEquals("'a\\u000d\\u000aFAKE'", LogSafe.key("a\r\nFAKE"));
    }

    @Test
    void truncatesLongKeys() {
        assertEquals("'" + "k".repeat(100) + "'(+5 chars)", LogSafe.key("k".repeat(105)));
    }
}
