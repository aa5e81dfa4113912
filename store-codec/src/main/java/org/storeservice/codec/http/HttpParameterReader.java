package org.storeservice.codec.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.wire.Operation;
import org.storeservice.codec.wire.UrlDecoding;

/**
 * Binds URL-encoded parameters ({@code a=1&b=2}, from a query or a form) to an operation's arguments as
 * ASMX does (wire notes §5): names case-insensitive, a repeated scalar joined with commas, extra names
 * ignored, {@code content} values each converted to one byte. {@code content} is converted while reading,
 * so a large form never holds one string per byte. Thread-safe.
 */
final class HttpParameterReader {
    private final int maxParameterNames;

    public HttpParameterReader(CodecLimits limits) {
        this.maxParameterNames = limits.maxParameterNames();
    }

    HttpCall read(Operation operation, String encoded, Charset charset) throws HttpError {
        Arguments arguments = new Arguments(operation);
        Set<String> names = new HashSet<>();
        int start = 0;
        int length = encoded.length();
        while (start <= length) {
            int end = encoded.indexOf('&', start);
            if (end < 0) {
                end = length;
            }
            int equals = indexOf(encoded, '=', start, end);
            // a pair without '=' has a null name in ASP.NET's collection: it can never name a parameter
            if (equals >= 0) {
                String name = UrlDecoding.decode(encoded.substring(start, equals), charset).toLowerCase(Locale.ROOT);
                if (names.add(name) && names.size() > maxParameterNames) {
                    throw HttpError.tooManyParameters();
                }
                arguments.add(name, encoded, equals + 1, end, charset);
            }
            start = end + 1;
        }
        return arguments.toCall();
    }

    /**
     * The first {@code c} in [{@code from}, {@code to}), or -1. Bounded so that pairs without {@code '='}
     * ({@code &&&...}) are not each searched to the end of the form: that was quadratic in the form's size.
     */
    private static int indexOf(String text, char c, int from, int to) {
        for (int i = from; i < to; i++) {
            if (text.charAt(i) == c) {
                return i;
            }
        }
        return -1;
    }

    /** The arguments of one call as they are read. */
    private static final class Arguments {
        private final Operation operation;
        private StringBuilder key;
        private StringBuilder value;
        private ByteArrayOutputStream content;
        private HttpError contentError;

        Arguments(Operation operation) {
            this.operation = operation;
        }

        void add(String name, String encoded, int start, int end, Charset charset) {
            if (name.equals("key")) {
                key = joined(key, UrlDecoding.decode(encoded.substring(start, end), charset));
            } else if (operation == Operation.WRITE_STRING && name.equals("value")) {
                value = joined(value, UrlDecoding.decode(encoded.substring(start, end), charset));
            } else if (operation == Operation.WRITE_BYTES && name.equals("content")) {
                if (content == null) {
                    content = new ByteArrayOutputStream();
                }
                if (contentError == null) {
                    try {
                        content.write(DotNetByte.parse(UrlDecoding.decode(encoded.substring(start, end), charset)));
                    } catch (HttpError e) {
                        contentError = e; // ASMX converts in order and stops at the first bad value
                    }
                }
            }
        }

        /** The call, or the error ASMX reports first: parameters are read in declaration order. */
        HttpCall toCall() throws HttpError {
            if (key == null) {
                throw HttpError.missingParameter("key");
            }
            if (operation == Operation.WRITE_STRING) {
                if (value == null) {
                    throw HttpError.missingParameter("value");
                }
                return new HttpCall(operation, key.toString(), value.toString(), null);
            }
            if (content == null) {
                throw HttpError.nullReference();
            }
            if (contentError != null) {
                throw contentError;
            }
            return new HttpCall(operation, key.toString(), null, content.toByteArray());
        }

        /** ASP.NET's NameValueCollection joins repeated values with commas. */
        private static StringBuilder joined(StringBuilder soFar, String next) {
            return soFar == null ? new StringBuilder(next) : soFar.append(',').append(next);
        }
    }
}
