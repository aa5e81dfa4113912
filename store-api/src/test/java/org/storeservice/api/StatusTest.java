package org.storeservice.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class StatusTest {

    @Test
    void wireNamesAreExactlyTheContractValues() {
        assertEquals("Success", Status.SUCCESS.wireName());
        assertEquals("Error", Status.ERROR.wireName());
        assertEquals(2, Status.values().length);
    }

    @Test
    void fromWireNameRoundTrips() {
        for (Status status : Status.values()) {
            assertEquals(status, Status.fromWireName(status.wireName()));
        }
    }

    @Test
    void fromWireNameIsCaseSensitiveAndRejectsUnknownText() {
        assertThrows(IllegalArgumentException.class, () -> Status.fromWireName("success"));
        assertThrows(IllegalArgumentException.class, () -> Status.fromWireName("SUCCESS"));
        assertThrows(IllegalArgumentException.class, () -> Status.fromWireName(" Success"));
        assertThrows(IllegalArgumentException.class, () -> Status.fromWireName(""));
        assertThrows(IllegalArgumentException.class, () -> Status.fromWireName(null));
    }
}
