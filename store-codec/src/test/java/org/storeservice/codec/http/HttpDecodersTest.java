package org.storeservice.codec.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.storeservice.api.Status;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.Fixture;
import org.storeservice.codec.wire.Operation;

/** The HTTP GET and POST decoders and the encoder on bytes alone, without a store or the dispatcher. */
class HttpDecodersTest {
    private static final CodecLimits LIMITS = CodecLimits.defaults();

    @Test
    void httpDecodersReadQueryAndForm() throws Exception {
        HttpParameterReader parameters = new HttpParameterReader(LIMITS);
        HttpCall get = new HttpGetDecoder(parameters).decode(Operation.WRITE_BYTES, "KEY=k&content=+1&content=%2B2");
        assertEquals("k", get.key());
        assertArrayEquals(new byte[] {1, 2}, get.content());
        HttpCall post = new HttpPostDecoder(parameters).decode(Operation.WRITE_STRING,
                "application/x-www-form-urlencoded; charset=iso-8859-1", new ByteArrayInputStream("key=%E9&value=%E9".getBytes(StandardCharsets.US_ASCII)));
        assertEquals("\u00e9", post.key());
        assertEquals("\u00e9", post.value());
    }

    @Test
    void httpEncoderWritesStatusAndErrors() {
        HttpEncoder encoder = new HttpEncoder("urn:n");
        assertEquals("<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<Status xmlns=\"urn:n\">Error</Status>",
                Fixture.body(encoder.success(Status.ERROR)));
        assertEquals("&lt;x&gt;\r\n", Fixture.body(encoder.error(new HttpError("<x>"))));
    }
}
