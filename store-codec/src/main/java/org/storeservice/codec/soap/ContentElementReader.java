package org.storeservice.codec.soap;

import java.io.IOException;
import java.util.function.Function;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import org.storeservice.codec.content.Base64Segments;
import org.storeservice.codec.content.ContentSpool;
import org.storeservice.codec.content.fast.ContentFastPath;
import org.storeservice.codec.wire.ErrorPages;

/**
 * Decodes the base64 {@code <content>} element the parser is in, as Woodstox's {@code readElementAsBinary} did
 * (see {@link Base64Segments} for the rules): text and CDATA are decoded, comments and processing instructions
 * skipped (bounded by {@link XmlEvents#next()}), an element is an error. Reads the parser's text events in place
 * rather than through readElementAsBinary, whose char-by-char decoder was half of the time of a large request.
 * A large content's leading run may come from the {@link ContentFastPath} first.
 *
 * <p>Not thread-safe: one per content; only one content per request is read (a second one is skipped).
 */
final class ContentElementReader {
    private final XmlEvents events;
    private final Function<String, SoapFault> unreadable;
    private final Base64Segments base64 = new Base64Segments();
    private boolean ended;

    /** A reader of the content whose start tag {@code events} is at. */
    ContentElementReader(XmlEvents events, Function<String, SoapFault> unreadable) {
        this.events = events;
        this.unreadable = unreadable;
        events.beginContent();
    }

    /**
     * Decodes the next bytes of the content into {@code buffer}.
     *
     * @return bytes decoded, at least 1 and up to {@code length}; -1 after the end tag of the content
     */
    int read(byte[] buffer, int offset, int length) throws XMLStreamException, SoapFault {
        if (ended) {
            return -1;
        }
        ContentFastPath fastPath = events.fastPath();
        if (fastPath != null && fastPath.decoding()) {
            int n = fastPath.decode(buffer, offset, length);
            if (n > 0) {
                return n;
            }
            events.resumeAfterRun();
        }
        int total = 0;
        try {
            while (true) {
                total += base64.decode(buffer, offset + total, length - total);
                if (total == length) {
                    return total;
                }
                // the segment is used up and every decoded byte handed out: the next event
                switch (events.next()) {
                    case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE ->
                            base64.segment(events.reader().getTextCharacters(), events.reader().getTextStart(),
                                    events.reader().getTextLength());
                    case XMLStreamConstants.END_ELEMENT -> {
                        base64.end();
                        ended = true;
                        return total > 0 ? total : -1;
                    }
                    case XMLStreamConstants.START_ELEMENT -> throw invalidBase64(
                            "Element content can not contain the child element '" + events.reader().getLocalName() + "'.");
                    default -> {
                        // comments and processing instructions are not part of the content
                    }
                }
            }
        } catch (Base64Segments.InvalidBase64Exception e) {
            throw invalidBase64(e.getMessage() + '.');
        }
    }

    /**
     * An estimate of the content's bytes still to come: from the fast path while it decodes (the body is all
     * there, so it is close), else 0 (unknown).
     */
    int available() {
        ContentFastPath fastPath = events.fastPath();
        return !ended && fastPath != null && fastPath.decoding() ? fastPath.remainingEstimate() : 0;
    }

    /**
     * Reads the whole content into a spool (memory, then a temporary file): when {@code <content>} comes before
     * {@code <key>} the store cannot be called yet. The caller closes the spool.
     */
    ContentSpool spool(int memoryBytes, SoapVersion version) throws XMLStreamException, SoapFault {
        ContentSpool spool = new ContentSpool(memoryBytes);
        boolean spooled = false;
        try {
            byte[] buffer = new byte[8192];
            int n;
            while ((n = read(buffer, 0, buffer.length)) >= 0) {
                spool.write(buffer, 0, n);
            }
            spooled = true;
            return spool;
        } catch (IOException e) {
            throw new SoapFault(version, FaultCode.SERVER, 500,
                    ErrorPages.UNABLE_TO_PROCESS + "Could not spool the content: " + e.getMessage());
        } finally {
            if (!spooled) {
                spool.close(); // a broken content or a full disk: the file must not outlive the request
            }
        }
    }

    /** The content's fault, located at the start of the text, tag or end tag where the rule was broken. */
    private SoapFault invalidBase64(String message) {
        return unreadable.apply("The content is not valid base64: " + message + events.currentPosition());
    }
}
