package org.storeservice.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class StoreLimitsTest {

    @Test
    void defaultsAreTheDocumentedValues() {
        StoreLimits limits = StoreLimits.defaults();
        assertEquals(512, limits.maxKeyLength());
        assertEquals(4_194_304L, limits.maxValueBytes());
    }

    @Test
    void builderOverridesAndToBuilderKeepsValues() {
        StoreLimits limits = StoreLimits.builder().maxKeyLength(10).maxValueBytes(20).build();
        assertEquals(10, limits.maxKeyLength());
        assertEquals(20, limits.maxValueBytes());
        StoreLimits copy = limits.toBuilder().maxKeyLength(11).build();
        assertEquals(11, copy.maxKeyLength());
        assertEquals(20, copy.maxValueBytes());
    }

    @Test
    void builderRejectsNonsense() {
        assertThrows(IllegalArgumentException.class, () -> StoreLimits.builder().maxKeyLength(0));
        assertThrows(IllegalArgumentException.class, () -> StoreLimits.builder().maxValueBytes(-1));
    }
}
