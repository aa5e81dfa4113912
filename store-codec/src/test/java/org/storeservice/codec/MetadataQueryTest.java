package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

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
        assertEquals("a b", MetadataQuery.urlDecode("a+b"));
        assertEquals("<é>", MetadataQuery.urlDecode("%3C%C3%A9%3e"));
        assertEquals("A", MetadataQuery.urlDecode("%u0041"));
        assertEquals("100%", MetadataQuery.urlDecode("100%"));
        assertEquals("%zz%4", MetadataQuery.urlDecode("%zz%4"));
        assertEquals("\uFFFD", MetadataQuery.urlDecode("%C3"));
        assertEquals("wsdl", MetadataQuery.parse("%77sdl").get(null));
    }
}
