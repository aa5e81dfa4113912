package org.storeservice.codec.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.storeservice.codec.wire.UrlDecoding;

class MetadataQueryTest {
    @Test
    void partWithoutEqualsIsABareValue() {
        MetadataQuery query = MetadataQuery.parse("WSDL");

        assertEquals("WSDL", query.get(null));
        assertNull(query.get("wsdl"));
    }

    @Test
    void namesAreCaseInsensitiveAndAnEmptyValueIsPresent() {
        MetadataQuery query = MetadataQuery.parse("WSDL=&Op=WriteString");

        assertEquals("", query.get("wsdl"));
        assertEquals("WriteString", query.get("op"));
        assertNull(query.get(null));
        assertNull(query.get("schema"));
    }

    @Test
    void repeatedValuesJoinWithCommasAsNameValueCollectionDoes() {
        assertEquals("wsdl,foo", MetadataQuery.parse("wsdl&foo").get(null));
        assertEquals("wsdl,", MetadataQuery.parse("wsdl&").get(null));
        assertEquals("a,,b", MetadataQuery.parse("a&&b").get(null));
        assertEquals("1,2", MetadataQuery.parse("op=1&OP=2").get("op"));
        assertEquals("x=y", MetadataQuery.parse("op=x=y").get("op"));
        assertNull(MetadataQuery.parse("").get(null));
    }

    @Test
    void decodesLikeHttpUtilityUrlDecode() {
        assertEquals("a b", decode("a+b"));
        assertEquals("<é>", decode("%3C%C3%A9%3e"));
        assertEquals("A", decode("%u0041"));
        assertEquals("100%", decode("100%"));
        assertEquals("%zz%4", decode("%zz%4"));
        assertEquals("\uFFFD", decode("%C3"));
        assertEquals("wsdl", MetadataQuery.parse("%77sdl").get(null));
        // .NET's HexToInt takes ASCII digits only, not ARABIC-INDIC DIGIT THREE
        assertEquals("wsdl%\u0663\u0663", MetadataQuery.parse("wsdl%\u0663\u0663").get(null));
    }

    private static String decode(String text) {
        return UrlDecoding.decode(text, StandardCharsets.UTF_8);
    }
}
