package org.storeservice.jetty;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

class RequestBodyLimitTest {

    @Test
    void handsOverOneBytePastTheLimitThenFails() throws IOException {
        InputStream limited = new RequestBodyLimit(new ByteArrayInputStream(new byte[10]), 5);

        byte[] buffer = new byte[100];
        assertEquals(6, limited.read(buffer, 0, buffer.length));
        assertThrows(RequestBodyLimit.RequestTooLargeException.class, () -> limited.read(buffer, 0, buffer.length));
        assertThrows(RequestBodyLimit.RequestTooLargeException.class, limited::read);
    }

    @Test
    void countsSingleByteReadsToo() throws IOException {
        InputStream limited = new RequestBodyLimit(new ByteArrayInputStream(new byte[] {1, 2, 3, 4}), 2);

        assertEquals(1, limited.read());
        assertEquals(2, limited.read());
        assertEquals(3, limited.read());
        assertThrows(IOException.class, limited::read);
    }

    @Test
    void aBodyWithinTheLimitEndsNormally() throws IOException {
        byte[] body = {1, 2, 3};
        InputStream limited = new RequestBodyLimit(new ByteArrayInputStream(body), 3);

        assertArrayEquals(body, limited.readAllBytes());
        assertEquals(-1, limited.read());
    }

    @Test
    void theLargestLimitMeansNoLimitRatherThanOverflowing() throws IOException {
        InputStream limited = new RequestBodyLimit(new ByteArrayInputStream(new byte[3]), Long.MAX_VALUE);

        assertEquals(3, limited.readAllBytes().length);
    }

    @Test
    void anEmptyReadIsNotAFailureEvenAtTheLimit() throws IOException {
        InputStream limited = new RequestBodyLimit(new ByteArrayInputStream(new byte[5]), 0);
        limited.read();

        assertEquals(0, limited.read(new byte[4], 0, 0));
    }
}
