package org.storeservice.codec.wire;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;

/**
 * URL-decodes as .NET's {@code HttpUtility.UrlDecode}: {@code '+'} is a space, {@code %xx} a byte (ASCII hex
 * digits only), {@code %uXXXX} a UTF-16 unit; a malformed escape stays as written; bytes, with the 7-bit
 * characters between them, decode together in the given charset (malformed sequences become U+FFFD).
 * The one URL decoder of the codec: SOAP actions, HTTP GET/POST parameters and metadata queries.
 */
public final class UrlDecoding {
    private UrlDecoding() {
    }

    public static String decode(String text, Charset charset) {
        if (text.indexOf('%') < 0 && text.indexOf('+') < 0) {
            return text;
        }
        StringBuilder out = new StringBuilder(text.length());
        ByteArrayOutputStream pendingBytes = new ByteArrayOutputStream();
        int length = text.length();
        for (int i = 0; i < length; i++) {
            char c = text.charAt(i);
            if (c == '%' && i + 5 < length && text.charAt(i + 1) == 'u' && hexValue(text, i + 2, 4) >= 0) {
                flush(pendingBytes, out, charset);
                out.append((char) hexValue(text, i + 2, 4));
                i += 5;
            } else if (c == '%' && i + 2 < length && hexValue(text, i + 1, 2) >= 0) {
                pendingBytes.write(hexValue(text, i + 1, 2));
                i += 2;
            } else if (c < 0x80) {
                // as .NET: a 7-bit character joins the pending bytes (it may end a multi-byte sequence)
                pendingBytes.write(c == '+' ? ' ' : c);
            } else {
                flush(pendingBytes, out, charset);
                out.append(c);
            }
        }
        flush(pendingBytes, out, charset);
        return out.toString();
    }

    private static void flush(ByteArrayOutputStream pendingBytes, StringBuilder out, Charset charset) {
        if (pendingBytes.size() > 0) {
            out.append(new String(pendingBytes.toByteArray(), charset));
            pendingBytes.reset();
        }
    }

    /** The value of {@code digits} hex digits at {@code start}, or -1 if one is not a hex digit. */
    private static int hexValue(String text, int start, int digits) {
        int value = 0;
        for (int i = start; i < start + digits; i++) {
            int digit = Character.digit(text.charAt(i), 16);
            if (digit < 0 || text.charAt(i) > 'f') {
                return -1;
            }
            value = value * 16 + digit;
        }
        return value;
    }
}
