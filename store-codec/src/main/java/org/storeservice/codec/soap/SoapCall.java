package org.storeservice.codec.soap;

import com.ctc.wstx.exc.WstxEOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import javax.xml.stream.Location;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.codehaus.stax2.XMLStreamReader2;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.content.Base64Segments;
import org.storeservice.codec.content.ContentSpool;
import org.storeservice.codec.content.fast.ContentFastPath;
import org.storeservice.codec.wire.ContentType;
import org.storeservice.codec.wire.ErrorPages;
import org.storeservice.codec.wire.Operation;
import org.storeservice.codec.wire.RequestTooLargeException;

/**
 * One SOAP request being read: the envelope, the headers' mustUnderstand check, the operation wrapper and
 * its parameters with ASMX's rules (wire notes §9): absent is {@code null}, empty or {@code xsi:nil} is
 * empty, order free, the first duplicate wins, unqualified or foreign children are ignored.
 *
 * <p>{@code content} is streamed: when {@code <key>} came first, {@link #content()} decodes base64 as the
 * store reads it, and reports end of stream only after the rest of the document was read and found
 * well-formed, so a broken tail or an over-limit request fails the store's read and nothing is stored.
 * When {@code <content>} comes before {@code <key>} the store cannot be called yet: the content is spooled
 * (memory, then a temporary file) until the whole document is read. Either way, a large content's leading run
 * of plain base64 may be decoded straight from the request bytes ({@link ContentFastPath}), then a second
 * parser reads on after the run, with the same rules and locations.
 *
 * <p>Not thread-safe: one per request. {@link #close()} releases the parser and any spool.
 */
public final class SoapCall implements AutoCloseable {
    private static final String MISSING_ACTION =
            "Unable to handle request without a valid action parameter. Please supply a valid soap action.";

    private final String namespace;
    private final CodecLimits limits;
    private final SoapVersion guessedVersion;
    private final String contentType;
    private final String action;

    private XMLStreamReader2 reader;
    private SoapVersion envelopeVersion;
    private Operation operation;
    /** True until the operation is known: ASMX's routing by body element turns XML errors into 500s. */
    private boolean routingByElement;
    private String key;
    private String value;
    private boolean rootSeen;
    private boolean wrapperAbsent;
    private boolean contentSeen;
    /** Decodes {@code <content>}: only one content per request is read (a second one is skipped). */
    private final Base64Segments base64 = new Base64Segments();
    private boolean contentEnded;
    private ContentSpool spool;
    private StreamedContent streamedContent;
    private boolean documentRead;
    /** The byte-level path for a large content, or {@code null}; see {@link ContentFastPath}. */
    private final ContentFastPath contentFastPath;
    /** Start tags read so far: the fast path's second parser finds the content again by its number. */
    private int startElements;

    /** @param contentFastPath the byte-level path for a large content, or {@code null} */
    SoapCall(String namespace, CodecLimits limits, SoapVersion guessedVersion, String contentType, String action,
            Operation routed, ContentFastPath contentFastPath) {
        this.contentFastPath = contentFastPath;
        this.namespace = namespace;
        this.limits = limits;
        this.guessedVersion = guessedVersion;
        this.contentType = contentType;
        this.action = action;
        this.operation = routed;
        this.routingByElement = routed == null;
    }

    /** The version to answer in: the envelope's once read, else the one guessed from the headers. */
    SoapVersion version() {
        return envelopeVersion != null ? envelopeVersion : guessedVersion;
    }

    Operation operation() {
        return operation;
    }

    /** The {@code key} parameter; {@code null} if absent. */
    String key() {
        return key;
    }

    /** The {@code value} parameter of WriteString; {@code null} if absent. */
    String value() {
        return value;
    }

    /** The {@code content} of WriteBytes as a stream, or {@code null} if absent. Opened once. */
    InputStream content() throws IOException {
        if (streamedContent != null) {
            return streamedContent;
        }
        return spool == null ? null : spool.open();
    }

    /** The fault that broke the streamed content, or {@code null}. */
    SoapFault contentFailure() {
        return streamedContent == null ? null : streamedContent.failure;
    }

    void start(XMLStreamReader2 xmlReader) throws XMLStreamException, SoapFault {
        this.reader = xmlReader;
        readEnvelopeToBody();
        if (!readParameters()) {
            readToEndOfDocument();
        }
    }

    /**
     * Reads whatever the store left unread, to the end of the document, so that a broken tail is reported
     * even if the store did not read all of the content.
     */
    void finish() throws SoapFault {
        if (documentRead) {
            return;
        }
        try {
            streamedContent.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            throw streamedContent.failure != null ? streamedContent.failure : unreadable(e.getMessage());
        }
    }

    @Override
    public void close() {
        if (reader != null) {
            try {
                reader.close();
            } catch (XMLStreamException e) {
                // nothing to recover: the input belongs to the server adapter
            }
        }
        if (spool != null) {
            spool.close();
        }
    }

    private void readEnvelopeToBody() throws XMLStreamException, SoapFault {
        int event = next();
        while (event != XMLStreamConstants.START_ELEMENT) {
            if (event == XMLStreamConstants.DTD) {
                throw xmlError("For security reasons DTD is prohibited in this XML document.");
            }
            if (event == XMLStreamConstants.END_DOCUMENT) {
                throw xmlError("Root element is missing.");
            }
            event = next();
        }
        rootSeen = true;
        // As ASMX: the root's namespace picks the version (GetHelper) and an unknown one is a version mismatch
        // (CheckHelperVersion) before the root's local name is looked at (wire notes §3).
        String envelopeNamespace = reader.getNamespaceURI();
        envelopeVersion = SoapVersion.byEnvelopeNamespace(envelopeNamespace);
        if (envelopeVersion == null) {
            throw new SoapFault(SoapVersion.SOAP_11, FaultCode.VERSION_MISMATCH, 500,
                    "Possible SOAP version mismatch: Envelope namespace " + envelopeNamespace
                            + " was unexpected. Expecting " + SoapVersion.SOAP_11.envelopeNamespace() + ".");
        }
        if (envelopeVersion == SoapVersion.SOAP_11
                && ContentType.base(contentType).equals(SoapVersion.SOAP_12.mediaType())) {
            throw SoapFault.unsupportedMediaType(SoapVersion.SOAP_11, contentType);
        }
        if (!"Envelope".equals(reader.getLocalName())) {
            throw missingElement("Envelope");
        }
        while (nextTag() == XMLStreamConstants.START_ELEMENT) {
            if (isEnvelopeElement("Body")) {
                readBodyToWrapper();
                return;
            }
            if (isEnvelopeElement("Header")) {
                checkHeadersUnderstood();
            } else {
                skipElement();
            }
        }
        throw missingElement("Body");
    }

    /**
     * A missing Envelope or Body. Routing by element, ASMX finds it in GetRequestElement, whose plain
     * InvalidOperationException becomes a Server fault; routed by action, ReadParameters finds it and wraps it
     * as a Client fault "unable to read" (wire notes §3).
     */
    private SoapFault missingElement(String localName) {
        String message = "Request format is invalid: Missing required soap:" + localName + " element.";
        if (routingByElement) {
            return new SoapFault(version(), FaultCode.SERVER, 500, ErrorPages.UNABLE_TO_PROCESS + message);
        }
        return new SoapFault(version(), FaultCode.CLIENT, 500, SoapFault.UNABLE_TO_READ + message);
    }

    /**
     * This service understands no header, so a header marked mustUnderstand is a fault. ASMX checks this only
     * after the method ran (and so stores the value, then answers a fault); here it is checked before the
     * store is called: a request answered with a fault never stores anything.
     */
    private void checkHeadersUnderstood() throws XMLStreamException, SoapFault {
        while (nextTag() == XMLStreamConstants.START_ELEMENT) {
            String mustUnderstand = reader.getAttributeValue(envelopeVersion.envelopeNamespace(), "mustUnderstand");
            if ("1".equals(mustUnderstand) || "true".equals(mustUnderstand)) {
                throw new SoapFault(envelopeVersion, FaultCode.MUST_UNDERSTAND, 500,
                        "SOAP header " + reader.getLocalName() + " was not understood.");
            }
            skipElement();
        }
    }

    private void readBodyToWrapper() throws XMLStreamException, SoapFault {
        boolean hasChild = nextTag() == XMLStreamConstants.START_ELEMENT;
        if (operation == null) {
            if (hasChild && namespace.equals(reader.getNamespaceURI())) {
                operation = Operation.byWireName(reader.getLocalName());
            }
            if (operation == null) {
                throw new SoapFault(envelopeVersion, FaultCode.CLIENT, 500, action == null ? MISSING_ACTION
                        : "Unable to handle request. The action '" + action + "' was not recognized.");
            }
        }
        routingByElement = false;
        // Routed by action, ASMX's serializer skips Body children other than the wrapper as unknown nodes; with
        // no wrapper every parameter stays null. Routed by element, the first child is the wrapper.
        while (hasChild && !isWrapperOf(operation)) {
            skipElement();
            hasChild = nextTag() == XMLStreamConstants.START_ELEMENT;
        }
        if (!hasChild) {
            // parameters all null; readParameters() sees the wrapper as already ended
            wrapperAbsent = true;
        }
    }

    /**
     * Reads the wrapper's children. Returns true when it stopped at a {@code <content>} to be streamed
     * (key known); call again after the content's end to read the rest.
     */
    private boolean readParameters() throws XMLStreamException, SoapFault {
        if (wrapperAbsent) {
            return false;
        }
        while (nextTag() == XMLStreamConstants.START_ELEMENT) {
            if (!namespace.equals(reader.getNamespaceURI())) {
                skipElement();
                continue;
            }
            String name = reader.getLocalName();
            if (key == null && "key".equals(name)) {
                key = readText();
            } else if (operation == Operation.WRITE_STRING && value == null && "value".equals(name)) {
                value = readText();
            } else if (operation == Operation.WRITE_BYTES && !contentSeen && "content".equals(name)) {
                contentSeen = true;
                if (contentFastPath != null) {
                    contentFastPath.begin(reader, startElements);
                }
                if (key != null) {
                    streamedContent = new StreamedContent();
                    return true;
                }
                spoolContent();
            } else {
                skipElement();
            }
        }
        return false;
    }

    /** Reads to the end of the document: the rest of the Body and Envelope, and anything after the root. */
    private void readToEndOfDocument() throws XMLStreamException, SoapFault {
        while (reader.hasNext()) {
            next();
        }
        documentRead = true;
    }

    /** The text of a parameter element, bounded by {@link CodecLimits#maxTextLength()}. */
    private String readText() throws XMLStreamException, SoapFault {
        String name = reader.getLocalName();
        String single = null; // most values come as one text event: no builder needed
        StringBuilder joined = null;
        int total = 0;
        while (true) {
            switch (next()) {
                case XMLStreamConstants.CHARACTERS:
                case XMLStreamConstants.CDATA:
                case XMLStreamConstants.SPACE:
                    int length = reader.getTextLength();
                    if (length > limits.maxTextLength() - total) {
                        throw unreadable("The text of element '" + name + "' is longer than "
                                + limits.maxTextLength() + " characters.");
                    }
                    total += length;
                    if (single == null) {
                        single = reader.getText();
                    } else {
                        if (joined == null) {
                            joined = new StringBuilder(single);
                        }
                        joined.append(reader.getTextCharacters(), reader.getTextStart(), length);
                    }
                    break;
                case XMLStreamConstants.START_ELEMENT:
                    throw unreadable("Element '" + name + "' must contain text only, but it contains the element '"
                            + reader.getLocalName() + "'.");
                case XMLStreamConstants.END_ELEMENT:
                    return joined != null ? joined.toString() : single != null ? single : "";
                default:
                    break; // comments and processing instructions are not part of the text
            }
        }
    }

    private void spoolContent() throws XMLStreamException, SoapFault {
        spool = new ContentSpool(limits.spoolMemoryBytes());
        byte[] buffer = new byte[8192];
        try {
            int n;
            while ((n = readContent(buffer, 0, buffer.length)) >= 0) {
                spool.write(buffer, 0, n);
            }
        } catch (IOException e) {
            throw new SoapFault(version(), FaultCode.SERVER, 500,
                    ErrorPages.UNABLE_TO_PROCESS + "Could not spool the content: " + e.getMessage());
        }
    }

    /**
     * Decodes the base64 {@code <content>} being read into {@code buffer}, as Woodstox's
     * {@code readElementAsBinary} did (see {@link Base64Segments} for the rules): text and CDATA are decoded,
     * comments and processing instructions skipped (bounded by {@link #next()}), an element is an error. Reads
     * the parser's text events in place rather than through readElementAsBinary, whose char-by-char decoder
     * was half of the time of a large request.
     *
     * @return bytes decoded, at least 1 and up to {@code length}; -1 after the end tag of the content
     */
    private int readContent(byte[] buffer, int offset, int length) throws XMLStreamException, SoapFault {
        if (contentEnded) {
            return -1;
        }
        if (contentFastPath != null && contentFastPath.decoding()) {
            int n = contentFastPath.decode(buffer, offset, length);
            if (n > 0) {
                return n;
            }
            reader = contentFastPath.resume(); // the run is used up: the parser goes on after it
        }
        int total = 0;
        try {
            while (true) {
                total += base64.decode(buffer, offset + total, length - total);
                if (total == length) {
                    return total;
                }
                // the segment is used up and every decoded byte handed out: the next event
                switch (next()) {
                    case XMLStreamConstants.CHARACTERS:
                    case XMLStreamConstants.CDATA:
                    case XMLStreamConstants.SPACE:
                        base64.segment(reader.getTextCharacters(), reader.getTextStart(), reader.getTextLength());
                        break;
                    case XMLStreamConstants.END_ELEMENT:
                        base64.end();
                        contentEnded = true;
                        return total > 0 ? total : -1;
                    case XMLStreamConstants.START_ELEMENT:
                        throw invalidBase64("Element content can not contain the child element '" + reader.getLocalName() + "'.");
                    default:
                        break; // comments and processing instructions are not part of the content
                }
            }
        } catch (Base64Segments.InvalidBase64Exception e) {
            throw invalidBase64(e.getMessage() + '.');
        }
    }

    /** The content's fault, located at the start of the text, tag or end tag where the rule was broken. */
    private SoapFault invalidBase64(String message) {
        Location at = reader.getLocationInfo().getStartLocation();
        return unreadable("The content is not valid base64: " + message + " Line " + line(at)
                + ", position " + column(at) + '.');
    }

    /** The next start or end tag, skipping text, comments and processing instructions between elements. */
    private int nextTag() throws XMLStreamException, SoapFault {
        int event;
        do {
            event = next();
        } while (event != XMLStreamConstants.START_ELEMENT && event != XMLStreamConstants.END_ELEMENT);
        return event;
    }

    /** Skips the current element and its content, as {@code reader.skipElement()}, but through {@link #next()}. */
    private void skipElement() throws XMLStreamException, SoapFault {
        int depth = 1;
        while (depth > 0) {
            int event = next();
            if (event == XMLStreamConstants.START_ELEMENT) {
                depth++;
            } else if (event == XMLStreamConstants.END_ELEMENT) {
                depth--;
            }
        }
    }

    /**
     * The next event, with comments and processing instructions bounded by {@link CodecLimits#maxTextLength()}.
     * Woodstox builds each of them whole (its text limit does not cover them, and cannot be set as it would
     * also cut the streamed base64 content), so one is refused after it was parsed, within the request size;
     * other text comes in segments no longer than its input buffer. Every event passes here, those inside
     * {@code <content>} too.
     */
    private int next() throws XMLStreamException, SoapFault {
        int event = reader.next();
        if (event == XMLStreamConstants.START_ELEMENT) {
            startElements++;
        }
        if (event == XMLStreamConstants.COMMENT && reader.getTextLength() > limits.maxTextLength()) {
            throw unreadable("A comment is longer than " + limits.maxTextLength() + " characters.");
        }
        if (event == XMLStreamConstants.PROCESSING_INSTRUCTION && reader.getPIData() != null
                && reader.getPIData().length() > limits.maxTextLength()) {
            throw unreadable("A processing instruction is longer than " + limits.maxTextLength() + " characters.");
        }
        return event;
    }

    private boolean isEnvelopeElement(String localName) {
        return localName.equals(reader.getLocalName()) && envelopeVersion.envelopeNamespace().equals(reader.getNamespaceURI());
    }

    private boolean isWrapperOf(Operation op) {
        return op.wireName().equals(reader.getLocalName()) && namespace.equals(reader.getNamespaceURI());
    }

    /** The fault for a parser error or a limit reached while reading the body. */
    SoapFault xmlFault(XMLStreamException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof RequestTooLargeException) {
                // ASMX raises it while first reading the body, before the envelope: in the guessed version
                return SoapFault.tooLarge(guessedVersion);
            }
        }
        if (e instanceof WstxEOFException && !rootSeen) {
            return xmlError("Root element is missing.");
        }
        return xmlError(describe(e));
    }

    /** A malformed-XML fault: 500 Server while ASMX would still be routing by element, else 400 Client. */
    private SoapFault xmlError(String message) {
        if (routingByElement) {
            return new SoapFault(version(), FaultCode.SERVER, 500, ErrorPages.UNABLE_TO_PROCESS + message);
        }
        return unreadable(message);
    }

    private SoapFault unreadable(String message) {
        return SoapFault.unreadable(version(), message);
    }

    /** A parser message in .NET's style: the first line of the message, then "Line l, position p." */
    private String describe(XMLStreamException e) {
        String message = firstLine(e.getMessage());
        if (contentFastPath != null) {
            message = contentFastPath.message(message); // the fast path's parser did not see the run
        }
        if (e.getLocation() == null || e.getLocation().getLineNumber() < 0) {
            return message;
        }
        return message + " Line " + line(e.getLocation()) + ", position " + column(e.getLocation()) + '.';
    }

    /** The line of a parser location in the body as sent (the fast path's parser may have skipped lines). */
    private int line(Location at) {
        return contentFastPath == null ? at.getLineNumber() : contentFastPath.line(at);
    }

    private int column(Location at) {
        return contentFastPath == null ? at.getColumnNumber() : contentFastPath.column(at);
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "The request is not well-formed XML.";
        }
        int newline = message.indexOf('\n');
        return (newline >= 0 ? message.substring(0, newline) : message).trim();
    }

    /**
     * The base64 {@code <content>} decoded as the store reads it. End of stream comes only after the rest of
     * the document was read; every failure is kept, so the codec can answer it even if the store wraps it.
     */
    private final class StreamedContent extends InputStream {
        private SoapFault failure;
        private boolean ended;
        private final byte[] one = new byte[1];

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
                int n = readContent(buffer, offset, length);
                if (n < 0) {
                    readParameters(); // the rest of the wrapper; a second <content> is skipped, not streamed
                    readToEndOfDocument();
                    ended = true;
                }
                return n;
            } catch (XMLStreamException e) {
                failure = xmlFault(e);
            } catch (SoapFault fault) {
                failure = fault;
            }
            throw new FaultException(failure);
        }
    }

    /** Carries a {@link SoapFault} through {@link InputStream#read}, and so through the store. */
    static final class FaultException extends IOException {
        private static final long serialVersionUID = 1L;

        FaultException(SoapFault fault) {
            super(fault.reason(), fault);
        }
    }
}
