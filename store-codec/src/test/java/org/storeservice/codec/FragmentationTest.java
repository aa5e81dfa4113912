package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.storeservice.codec.Fixture.NS;
import static org.storeservice.codec.Fixture.PATH;

import java.nio.charset.StandardCharsets;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The same request, its body delivered at most k bytes per read for every k, decodes the same. */
class FragmentationTest {

    private static void assertSameForEveryChunkSize(String body, Function<CodecRequest.Builder, CodecRequest.Builder> headers,
            String path, String key, byte[] expectedValue) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        CodecResponse whole = new Fixture().handle(headers.apply(Fixture.post(path, bytes)));
        assertEquals(200, whole.status(), Fixture.body(whole));
        for (int k = 1; k <= bytes.length; k++) {
            Fixture fixture = new Fixture(CodecLimits.builder().spoolMemoryBytes(3).build());
            CodecResponse response = fixture.handle(headers.apply(CodecRequest.builder("POST", path).body(Fixture.chunked(bytes, k))));
            assertArrayEquals(whole.bodyBytes(), response.bodyBytes(), "chunk size " + k);
            assertEquals(whole.headers(), response.headers(), "chunk size " + k);
            assertArrayEquals(expectedValue, fixture.bytes(key).orElseThrow(), "chunk size " + k);
        }
    }

    @Test
    void soap11WriteString() {
        String value = "caf\u00e9 \uD83D\uDE00 &amp; \r\n end";
        assertSameForEveryChunkSize(Fixture.soap11(Fixture.writeString("k\u00e9", value)),
                r -> r.header("Content-Type", "text/xml; charset=utf-8").header("SOAPAction", NS + "WriteString"),
                PATH, "k\u00e9", "caf\u00e9 \uD83D\uDE00 & \n end".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void soap12WriteBytesStreamed() {
        assertSameForEveryChunkSize(Fixture.soap12(Fixture.writeBytes("k", "AAECAwQFBgcICQ==")),
                r -> r.header("Content-Type", "application/soap+xml"), PATH, "k", new byte[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
    }

    @Test
    void soap12WriteBytesSpooled() {
        String xml = Fixture.soap12("<WriteBytes xmlns=\"" + NS + "\"><content>AAECAwQFBgcICQ==</content><key>k</key></WriteBytes>");
        assertSameForEveryChunkSize(xml, r -> r.header("Content-Type", "application/soap+xml"), PATH, "k",
                new byte[] {0, 1, 2, 3, 4, 5, 6, 7, 8, 9});
    }

    @Test
    void httpPostWriteBytes() {
        assertSameForEveryChunkSize("key=k&content=1&content=%2B2&content=255",
                r -> r.header("Content-Type", "application/x-www-form-urlencoded"), PATH + "/WriteBytes", "k", new byte[] {1, 2, -1});
    }
}
