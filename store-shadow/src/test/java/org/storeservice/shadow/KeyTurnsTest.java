package org.storeservice.shadow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class KeyTurnsTest {
    @Test
    void aSecondWriteOfAKeyWaitsForTheFirstAndOtherKeysDoNot() {
        KeyTurns turns = new KeyTurns();
        List<String> ran = new ArrayList<>();
        turns.take("k", () -> ran.add("k1"));
        turns.take("k", () -> ran.add("k2"));
        turns.take("other", () -> ran.add("other"));
        turns.take("k", () -> ran.add("k3"));
        assertEquals(List.of("k1", "other"), ran);
        turns.giveBack("k");
        assertEquals(List.of("k1", "other", "k2"), ran);
        turns.giveBack("k");
        turns.giveBack("other");
        assertEquals(List.of("k1", "other", "k2", "k3"), ran);
        turns.giveBack("k");
        assertEquals(0, turns.taken());
    }
}
