package org.storeservice.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import org.junit.jupiter.api.Test;

class UnreadBodyTest {

    @Test
    void readsABodyWithinTheBoundToItsEnd() {
        ByteArrayInputStream body = new ByteArrayInputStream(new byte[20_000]);

        assertTrue(UnreadBody.discard(body, 20_000));
        assertEquals(0, body.available());
    }

    @Test
    void stopsAtTheBound() {
        ByteArrayInputStream body = new ByteArrayInputStream(new byte[20_000]);

        assertFalse(UnreadBody.discard(body, 10_000));
        assertEquals(20_000 - 10_000 - 1, body.available()); // the bound, and one byte to see there is more
    }

    @Test
    void aFailingReadEndsItQuietly() {
        InputStream failing = new SequenceInputStream(new ByteArrayInputStream(new byte[10]), new InputStream() {
            @Override
            public int read() throws IOException {
                throw new IOException("reset by peer");
            }
        });

        assertFalse(UnreadBody.discard(failing, 1_000));
    }
}
