package org.storeservice.codec.content.fast;

import java.io.IOException;
import java.io.InputStream;

/**
 * The request body with a decoded base64 run cut out: the bytes before the run, the bytes read after it, then
 * the rest of the body, then the failure that ended reading it (if one did), raised where the parser reaches it.
 *
 * <p>Not thread-safe: one per request.
 */
final class SplicedInput extends InputStream {
    private final byte[] before;
    private int beforePosition;
    private final byte[] after;
    private int afterPosition;
    private final int afterEnd;
    private final InputStream rest;
    private final IOException failure;

    /**
     * @param rest the rest of the body, or {@code null} if it has ended
     * @param failure thrown once {@code before} and {@code after} are used up, or {@code null}
     */
    SplicedInput(byte[] before, byte[] after, int afterStart, int afterEnd, InputStream rest, IOException failure) {
        this.before = before;
        this.after = after;
        this.afterPosition = afterStart;
        this.afterEnd = afterEnd;
        this.rest = rest;
        this.failure = failure;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        if (beforePosition < before.length) {
            int n = Math.min(length, before.length - beforePosition);
            System.arraycopy(before, beforePosition, buffer, offset, n);
            beforePosition += n;
            return n;
        }
        if (afterPosition < afterEnd) {
            int n = Math.min(length, afterEnd - afterPosition);
            System.arraycopy(after, afterPosition, buffer, offset, n);
            afterPosition += n;
            return n;
        }
        if (failure != null) {
            throw failure;
        }
        return rest == null ? -1 : rest.read(buffer, offset, length);
    }
}
