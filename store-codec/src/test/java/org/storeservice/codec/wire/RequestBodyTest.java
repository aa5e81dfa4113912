package org.storeservice.codec.wire;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;
import org.storeservice.codec.CodecRequest;

/** The one place the request size limit is enforced while reading: at most limit + 1 bytes leave the server. */
class RequestBodyTest {

    /** A body without Content-Length (as chunked) that counts how many bytes were taken from it. */
    private static final class CountingBody extends ByteArrayInputStream {
        int taken;

        CountingBody(int length) {
            super(new byte[length]);
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) {
            int n = super.read(b, off, len);
            taken += Math.max(n, 0);
            return n;
        }
    }

    private static InputStream limited(InputStream body, long limit) throws IOException {
        return RequestBody.of(CodecRequest.builder("POST", "/").body(body).build(), limit);
    }

    @Test
    void itKeepsTheFirst128BytesAsSentWhateverTheReads() throws IOException {
        byte[] content = new byte[300];
        for (int i = 0; i < content.length; i++) {
            content[i] = (byte) i;
        }
        RequestBody body = RequestBody.of(CodecRequest.builder("POST", "/").body(new ByteArrayInputStream(content)).build(),
                1000);
        assertArrayEquals(new byte[0], body.head());
        body.read();
        byte[] buffer = new byte[50];
        assertEquals(50, body.read(buffer, 0, 50));
        assertArrayEquals(java.util.Arrays.copyOf(content, 51), body.head());
        body.readAllBytes();
        assertArrayEquals(java.util.Arrays.copyOf(content, 128), body.head());
    }

    @Test
    void aBodyOverTheLimitIsCutOffOneBytePastIt() throws IOException {
        CountingBody body = new CountingBody(1000);
        InputStream limited = limited(body, 10);
        byte[] buffer = new byte[8192];

        assertEquals(10, limited.read(buffer, 0, 10));
        RequestTooLargeException e = assertThrows(RequestTooLargeException.class,
                () -> limited.read(buffer, 0, buffer.length));
        assertEquals("Maximum request length exceeded.", e.getMessage());
        assertThrows(RequestTooLargeException.class, limited::read);
        assertThrows(RequestTooLargeException.class, () -> limited.read(buffer, 0, buffer.length));
        assertEquals(11, body.taken, "one byte past the limit is taken from the server, to see it crossed");
    }

    @Test
    void aBodyExactlyAtTheLimitIsReadWhole() throws IOException {
        byte[] bytes = {1, 2, 3, 4, 5};
        assertArrayEquals(bytes, limited(new ByteArrayInputStream(bytes), 5).readAllBytes());
    }

    @Test
    void aDeclaredLengthOverTheLimitFailsBeforeReading() {
        CodecRequest request = CodecRequest.builder("POST", "/").header("Content-Length", "6")
                .body(new ByteArrayInputStream(new byte[6])).build();
        assertThrows(RequestTooLargeException.class, () -> RequestBody.of(request, 5));
    }

    @Test
    void noLimitDoesNotOverflow() throws IOException {
        assertEquals(3, limited(new ByteArrayInputStream(new byte[3]), Long.MAX_VALUE).readAllBytes().length);
    }
}
