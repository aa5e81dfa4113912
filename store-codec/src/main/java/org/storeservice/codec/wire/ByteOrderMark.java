package org.storeservice.codec.wire;

import java.io.IOException;
import java.io.PushbackInputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * The byte-order marks .NET's {@code StreamReader} recognises when it detects an encoding from them
 * ({@code StreamReader.DetectEncoding}): UTF-32 LE ({@code FF FE 00 00}, tested before UTF-16 LE, whose mark it starts
 * with), UTF-16 LE ({@code FF FE}), UTF-16 BE ({@code FE FF}), UTF-8 ({@code EF BB BF}), UTF-32 BE ({@code 00 00 FE FF}).
 */
final class ByteOrderMark {
    /** UTF-8's mark. */
    static final byte[] UTF_8_BOM = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF};
    private static final Charset UTF_32LE = Charset.forName("UTF-32LE");
    private static final Charset UTF_32BE = Charset.forName("UTF-32BE");

    private ByteOrderMark() {
    }

    /**
     * Reads a byte-order mark at the start of {@code input} and returns its encoding, with the mark consumed; else
     * {@code null}, with every byte read pushed back.
     */
    static Charset skip(PushbackInputStream input) throws IOException {
        byte[] head = input.readNBytes(4);
        int n = head.length;
        int b0 = n > 0 ? head[0] & 0xFF : -1;
        int b1 = n > 1 ? head[1] & 0xFF : -1;
        int b2 = n > 2 ? head[2] & 0xFF : -1;
        int b3 = n > 3 ? head[3] & 0xFF : -1;
        Charset charset;
        int length;
        if (b0 == 0xFF && b1 == 0xFE && b2 == 0 && b3 == 0) {
            charset = UTF_32LE;
            length = 4;
        } else if (b0 == 0xFF && b1 == 0xFE) {
            charset = StandardCharsets.UTF_16LE;
            length = 2;
        } else if (b0 == 0xFE && b1 == 0xFF) {
            charset = StandardCharsets.UTF_16BE;
            length = 2;
        } else if (b0 == 0xEF && b1 == 0xBB && b2 == 0xBF) {
            charset = StandardCharsets.UTF_8;
            length = 3;
        } else if (b0 == 0 && b1 == 0 && b2 == 0xFE && b3 == 0xFF) {
            charset = UTF_32BE;
            length = 4;
        } else {
            charset = null;
            length = 0;
        }
        input.unread(head, length, n - length);
        return charset;
    }
}
