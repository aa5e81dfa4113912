package org.storeservice.codec.http;

/**
 * Converts one HTTP {@code content} value to a byte as ASMX does: {@code Convert.ChangeType(value,
 * typeof(byte))}, i.e. {@code Byte.Parse(s, NumberStyles.Integer, invariant)} — decimal digits, leading
 * and trailing white space, one leading sign, trailing NULs, range 0 to 255.
 */
final class DotNetByte {
    private static final String BAD_FORMAT = "Input string was not in a correct format.";
    private static final String BYTE_OVERFLOW = "Value was either too large or too small for an unsigned byte.";
    private static final String INT32_OVERFLOW = "Value was either too large or too small for an Int32.";

    private DotNetByte() {
    }

    /** The byte {@code text} denotes. */
    public static byte parse(String text) throws HttpError {
        int end = text.length();
        while (end > 0 && text.charAt(end - 1) == '\0') {
            end--;
        }
        while (end > 0 && isWhite(text.charAt(end - 1))) {
            end--;
        }
        int i = 0;
        while (i < end && isWhite(text.charAt(i))) {
            i++;
        }
        boolean negative = false;
        if (i < end && (text.charAt(i) == '+' || text.charAt(i) == '-')) {
            negative = text.charAt(i) == '-';
            i++;
        }
        if (i == end) {
            throw cannotConvert(text, BAD_FORMAT);
        }
        long magnitude = 0;
        for (; i < end; i++) {
            char c = text.charAt(i);
            if (c < '0' || c > '9') {
                throw cannotConvert(text, BAD_FORMAT);
            }
            magnitude = Math.min(magnitude * 10 + (c - '0'), 1L << 40); // saturate: only the range matters
        }
        long value = negative ? -magnitude : magnitude;
        if (value > Integer.MAX_VALUE || value < Integer.MIN_VALUE) {
            throw cannotConvert(text, BYTE_OVERFLOW + " ---> " + INT32_OVERFLOW);
        }
        if (value < 0 || value > 255) {
            throw cannotConvert(text, BYTE_OVERFLOW);
        }
        return (byte) value;
    }

    /** .NET's Char.IsWhiteSpace subset that number parsing skips: space and tab to carriage return. */
    private static boolean isWhite(char c) {
        return c == ' ' || c >= '\t' && c <= '\r';
    }

    private static HttpError cannotConvert(String text, String cause) {
        return new HttpError("Cannot convert " + text + " to System.Byte.\r\nParameter name: type ---> " + cause);
    }
}
