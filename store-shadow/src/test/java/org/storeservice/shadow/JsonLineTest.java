package org.storeservice.shadow;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class JsonLineTest {
    @Test
    void anyStringMakesValidJson() {
        String line = new JsonLine()
                .field("quote", "a\"b\\c")
                .field("controls", "\n\r\t\u0001\u2028")
                .field("pair", "\uD83D\uDE00é")
                .field("lone", "x\uD800y\uDC00")
                .field("list", List.of("1", "2"))
                .field("n", 3)
                .field("inner", new JsonLine().field("b", true))
                .end();
        assertEquals("{\"quote\":\"a\\\"b\\\\c\",\"controls\":\"\\n\\r\\t\\u0001\\u2028\",\"pair\":\"\uD83D\uDE00é\","
                + "\"lone\":\"x\\ud800y\\udc00\",\"list\":[\"1\",\"2\"],\"n\":3,\"inner\":{\"b\":true}}", line);
    }

    @Test
    void aLongValueIsCutWithItsLengthAndHash() {
        String line = new JsonLine().cutField("key", "abcdef", 4).cutField("short", "ab", 4).end();
        assertEquals("{\"key\":\"abcd\",\"keyLength\":6,"
                + "\"keySha256\":\"bef57ec7f53a6d40beb640a780a639c83bc29ac8a9816f1fc6c5c6dcd93c4721\",\"short\":\"ab\"}", line);
    }

    @Test
    void aCutNeverSplitsASurrogatePair() {
        String line = new JsonLine().cutField("key", "ab\uD83D\uDE00cd", 3).end();
        assertEquals("\"key\":\"ab\"", line.substring(1, line.indexOf(",")));
    }
}
