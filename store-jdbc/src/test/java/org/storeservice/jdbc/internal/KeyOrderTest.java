package org.storeservice.jdbc.internal;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

class KeyOrderTest {
    @Test
    void byteOrderOfKeysIsStringOrder() {
        Random random = new Random(42);
        char[] interesting = {'a', 'z', '\u00e9', '\u7fff', '\ud83d', '\ude00', '\ue000', '\uff21', '\uffff', '%', '_'};
        for (int i = 0; i < 10_000; i++) {
            String a = randomKey(random, interesting);
            String b = randomKey(random, interesting);
            assertEquals(Integer.signum(a.compareTo(b)), Integer.signum(Arrays.compareUnsigned(KeyOrder.of(a),
                    KeyOrder.of(b))), a + " vs " + b);
        }
    }

    @Test
    void successorBoundsEveryKeyWithThePrefix() {
        assertArrayEquals(new byte[] {0, 'b'}, KeyOrder.successor(KeyOrder.of("a")));
        assertArrayEquals(new byte[] {0, 'a', 1}, KeyOrder.successor(KeyOrder.of("a\u00ff")));
        assertNull(KeyOrder.successor(KeyOrder.of("\uffff")));
        assertNull(KeyOrder.successor(new byte[0]));
    }

    private static String randomKey(Random random, char[] alphabet) {
        StringBuilder key = new StringBuilder();
        int length = 1 + random.nextInt(4);
        for (int i = 0; i < length; i++) {
            key.append(alphabet[random.nextInt(alphabet.length)]);
        }
        return key.toString();
    }
}
