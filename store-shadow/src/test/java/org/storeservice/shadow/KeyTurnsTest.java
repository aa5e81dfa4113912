package org.storeservice.shadow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    @Test
    void aKeysWaitingWritesAreBoundedAndOneBeyondIsNotMadeToWait() {
        KeyTurns turns = new KeyTurns();
        List<Integer> ran = new ArrayList<>();
        assertTrue(turns.take("k", () -> ran.add(0)));
        for (int i = 1; i <= KeyTurns.MAX_WAITING; i++) {
            int n = i;
            assertTrue(turns.take("k", () -> ran.add(n)), "waiting write " + i);
        }
        assertFalse(turns.take("k", () -> ran.add(-1)), "one more than the bound: refused, not queued");
        assertEquals(List.of(0), ran);
        for (int i = 0; i <= KeyTurns.MAX_WAITING; i++) {
            turns.giveBack("k");
        }
        assertEquals(KeyTurns.MAX_WAITING + 1, ran.size());
        assertFalse(ran.contains(-1), "the refused one never runs by the turns");
        assertEquals(0, turns.taken());
    }
}
