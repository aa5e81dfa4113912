package org.storeservice.codec.soap;

import java.io.IOException;
import java.io.InputStream;
import javax.xml.stream.XMLStreamException;

/**
 * The base64 {@code <content>} handed to the store as its value, decoded as the store reads it: each read
 * re-enters the request's parser ({@link ContentElementReader}), and the content's end tag drives the rest of
 * the request through its reader ({@link SoapCall#afterContent()}), so end of stream comes only after the rest
 * of the document was read and found well-formed. A broken tail or an over-limit request fails the store's
 * read, and so nothing is stored. Every failure is kept, so the codec can answer it even if the store wraps it.
 *
 * <p>Not thread-safe: one per request, read by the store on the request's thread.
 */
final class StreamedContent extends InputStream {
    private final SoapCall call;
    private final ContentElementReader content;
    private final byte[] one = new byte[1];
    private SoapFault failure;
    private boolean ended;

    StreamedContent(SoapCall call, ContentElementReader content) {
        this.call = call;
        this.content = content;
    }

    /** The fault that broke the content, or {@code null}. */
    SoapFault failure() {
        return failure;
    }

    @Override
    public int read() throws IOException {
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] buffer, int offset, int length) throws IOException {
        if (failure != null) {
            throw new FaultException(failure);
        }
        if (ended) {
            return -1;
        }
        if (length == 0) {
            return 0;
        }
        try {
            int n = content.read(buffer, offset, length);
            if (n < 0) {
                call.afterContent();
                ended = true;
            }
            return n;
        } catch (XMLStreamException e) {
            failure = call.xmlFault(e);
        } catch (SoapFault fault) {
            failure = fault;
        }
        throw new FaultException(failure);
    }

    /**
     * An estimate of the bytes still to come, close for a large content decoded from a buffered body: a store
     * may size one array for the value from it (as {@code MemoryStorage} does) instead of growing one.
     */
    @Override
    public int available() {
        return failure != null || ended ? 0 : content.available();
    }

    /** Carries a {@link SoapFault} through {@link InputStream#read}, and so through the store. */
    static final class FaultException extends IOException {
        private static final long serialVersionUID = 1L;

        FaultException(SoapFault fault) {
            super(fault.reason(), fault);
        }
    }
}
