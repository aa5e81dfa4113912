package org.storeservice.codec.content.fast;

import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import javax.xml.stream.Location;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import org.codehaus.stax2.XMLStreamReader2;
import org.storeservice.codec.wire.XmlReaders;

/**
 * The byte-level path for a large WriteBytes {@code <content>}: the parser turning megabytes of base64 into
 * chars and text events was most of the time of such a request, so the leading run of plain base64 is decoded
 * straight from the request bytes ({@link Base64ByteRun}), and a second parser reads the document with that run
 * cut out (the bytes before the content's text, then the body from where the run ended). Removing a run of
 * base64 and white space from text changes nothing else in the document: the second parser still checks all of
 * it, every limit and error is as before, and what it reports after the run is located as in the body as sent
 * ({@link ElidedRun}).
 *
 * <p>Taken only when it is sure to be right: UTF-8 (or detected as such), XML 1.0, the content's start tag
 * found in the recorded bytes where the parser said it was. Otherwise, and for small bodies, nothing changes.
 *
 * <p>Not thread-safe: one per request.
 */
public final class ContentFastPath {
    /** Read size of the run once past the recorded bytes (the recording's own buffer is reused if as large). */
    private static final int BUFFER_BYTES = 8 * 1024;

    private final RecordingInputStream body;
    private final XmlReaders xmlReaders;
    private final Charset charset;
    private final FastPathPolicy policy;

    private XMLStreamReader2 firstReader;
    private int contentStartElements;
    private long contentCharOffset;
    private ContentStartTag tag;
    private byte[] beforeRun;
    private Base64ByteRun run;
    private ElidedRun elided;

    private ContentFastPath(RecordingInputStream body, XmlReaders xmlReaders, Charset charset, FastPathPolicy policy) {
        this.body = body;
        this.xmlReaders = xmlReaders;
        this.charset = charset;
        this.policy = policy;
    }

    /**
     * A fast path for a body of {@code declaredLength} bytes (-1 if unknown), or {@code null} if the policy
     * does not try one; the parser must then read {@link #input()}.
     */
    public static ContentFastPath forBody(InputStream body, long declaredLength, XmlReaders xmlReaders, Charset charset,
            FastPathPolicy policy) {
        if (!policy.records(declaredLength) || !(charset == null || charset.equals(StandardCharsets.UTF_8))) {
            return null;
        }
        return new ContentFastPath(new RecordingInputStream(body, FastPathPolicy.RECORDING_LIMIT), xmlReaders, charset,
                policy);
    }

    /** The body for the first parser. */
    public InputStream input() {
        return body;
    }

    /**
     * Called with {@code reader} at the start of the content, the {@code startElements}-th start tag of the
     * document: takes the fast path if it can and it pays. Either way the recording ends here.
     *
     * @return true if the content is now to be read through {@link #decode} and then {@link #resume}
     */
    public boolean begin(XMLStreamReader2 reader, int startElements) {
        try {
            if (!body.complete() || !"UTF-8".equalsIgnoreCase(reader.getEncoding()) || "1.1".equals(reader.getVersion())) {
                return false;
            }
            byte[] recorded = body.recorded();
            int length = body.length();
            Location at = reader.getLocationInfo().getStartLocation();
            boolean bomSkipped = charset == null && length >= 3 && (recorded[0] & 0xFF) == 0xEF
                    && (recorded[1] & 0xFF) == 0xBB && (recorded[2] & 0xFF) == 0xBF;
            tag = ContentStartTag.locate(recorded, length, bomSkipped, at.getCharacterOffset(), at.getLineNumber(),
                    at.getColumnNumber(), reader.getPrefix());
            if (tag == null) {
                return false;
            }
            int plain = Base64ByteRun.plainLength(recorded, tag.end(), length);
            if (tag.end() + plain < length && !policy.worthIt(plain)) {
                return false;
            }
            firstReader = reader;
            contentStartElements = startElements;
            contentCharOffset = at.getCharacterOffset();
            beforeRun = Arrays.copyOf(recorded, tag.end());
            byte[] buffer = recorded.length >= BUFFER_BYTES ? recorded : new byte[BUFFER_BYTES];
            System.arraycopy(recorded, tag.end(), buffer, 0, length - tag.end());
            run = new Base64ByteRun(buffer, length - tag.end(), body.source());
            policy.taken();
            return true;
        } finally {
            body.stopRecording();
        }
    }

    /** True while the run is being decoded. */
    public boolean decoding() {
        return run != null && elided == null;
    }

    /**
     * Decodes the run into {@code out[offset, offset + length)}.
     *
     * @return bytes written, at least 1; -1 once the run is used up: then {@link #resume}
     */
    public int decode(byte[] out, int offset, int length) {
        return run.decode(out, offset, length);
    }

    /**
     * While {@linkplain #decoding() decoding}: an estimate of the content's bytes still to come, for a reader
     * that sizes one array for them (see {@link Base64ByteRun#remainingEstimate()}).
     */
    public int remainingEstimate() {
        return run.remainingEstimate();
    }

    /**
     * After the run: closes the first parser and returns the second, over the document without the run,
     * positioned at the same start tag of the content (its text goes on where the run ended).
     */
    public XMLStreamReader2 resume() throws XMLStreamException {
        firstReader.close();
        elided = new ElidedRun(tag.endCharOffset(), tag.endLine(), tag.endColumn(), run.chars(), run.lineBreaks(),
                run.charsAfterLastLineBreak());
        XMLStreamReader2 reader = xmlReaders.open(run.rest(beforeRun), charset);
        int startElements = 0;
        while (startElements < contentStartElements) {
            if (reader.next() == XMLStreamConstants.START_ELEMENT) {
                startElements++;
            }
        }
        if (!"content".equals(reader.getLocalName())
                || reader.getLocationInfo().getStartLocation().getCharacterOffset() != contentCharOffset) {
            // the same bytes up to here: cannot happen unless the parser changed how it counts
            throw new IllegalStateException("The second parser is not at the content's start tag");
        }
        return reader;
    }

    /** The line of {@code at} in the body as sent. */
    public int line(Location at) {
        return elided == null ? at.getLineNumber() : elided.line(at);
    }

    /** A parser message about the body as sent (see {@link ElidedRun#message}). */
    public String message(String parserMessage) {
        return elided == null ? parserMessage : elided.message(parserMessage);
    }

    /** The column of {@code at} in the body as sent. */
    public int column(Location at) {
        return elided == null ? at.getColumnNumber() : elided.column(at);
    }
}
