package org.storeservice.codec.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import org.junit.jupiter.api.Test;

class MetadataTemplateTest {
    @Test
    void bindsSomePlaceholdersAndRendersTheRest() {
        MetadataTemplate template = MetadataTemplate.of("<{{a}}|{{b}}|{{a}}>").bind(Map.of("a", "1"));

        assertEquals("<1|2|1>", template.render(Map.of("b", "2")));
    }

    @Test
    void placeholdersInsideValuesAreNotExpanded() {
        MetadataTemplate template = MetadataTemplate.of("{{ns}} at {{address}}").bind(Map.of("ns", "urn:{{address}}"));

        assertEquals("urn:{{address}} at http://h", template.render(Map.of("address", "http://h")));
    }

    @Test
    void aMissingValueIsAnError() {
        assertThrows(IllegalStateException.class, () -> MetadataTemplate.of("{{x}}").render(Map.of()));
    }

    @Test
    void markupEscapingCoversAttributesAndText() {
        assertEquals("a&amp;b&lt;c&gt;&quot;d&#39;&#xD;&#xA;&#x9;", MetadataEscaping.markup("a&b<c>\"d'\r\n\t"));
        assertEquals("a&#xD;&#xA;&#x9;b&#39;&lt;", MetadataEscaping.markup("a\r\n\tb'<"));
        assertEquals("plain", MetadataEscaping.markup("plain"));
        assertEquals("a%20b%C3%A9%25%2F:", MetadataEscaping.percentEncode("a bé%/:", ":"));
        assertEquals("%41", MetadataEscaping.percentEncode("%41", ""));
        assertEquals("Key+Store.asmx%2f%c3%a9", MetadataEscaping.aspNetUrlEncode("Key Store.asmx/é"));
    }
}
