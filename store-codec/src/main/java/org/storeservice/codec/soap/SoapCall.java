package org.storeservice.codec.soap;

import com.ctc.wstx.exc.WstxEOFException;
import java.io.IOException;
import java.util.Set;
import java.util.function.Supplier;
import java.io.InputStream;
import java.io.OutputStream;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import org.codehaus.stax2.XMLStreamReader2;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.content.ContentSpool;
import org.storeservice.codec.content.fast.ContentFastPath;
import org.storeservice.codec.wire.ContentType;
import org.storeservice.codec.wire.ErrorPages;
import org.storeservice.codec.wire.Operation;
import org.storeservice.codec.wire.RequestTooLargeException;

/**
 * One SOAP request being read, as a state machine over the parser's events ({@link ReadState}, one {@link #step}
 * per transition): the envelope, the headers' mustUnderstand check, the operation wrapper and its parameters with
 * ASMX's rules (wire notes §9): absent is {@code null}, empty or {@code xsi:nil} is empty, order free, the first
 * duplicate wins, unqualified or foreign children are ignored.
 *
 * <p>{@code content} is streamed: when {@code <key>} came first, the machine stops in {@link ReadState#CONTENT} and
 * the store reads the content through {@link StreamedContent}, which goes on with the machine after the content's
 * end tag. When {@code <content>} comes before {@code <key>} the store cannot be called yet: the content is
 * spooled (memory, then a temporary file) until the whole document is read.
 *
 * <p>Every state and its transitions are here, to be read as one table.
 *
 * <p>Not thread-safe: one per request. {@link #close()} releases the parser and any spool.
 */
final class SoapCall implements AutoCloseable {
    private static final String MISSING_ACTION =
            "Unable to handle request without a valid action parameter. Please supply a valid soap action.";

    private final String namespace;
    /** The SOAP versions whose protocol is on. */
    private final Set<SoapVersion> enabled;
    private final CodecLimits limits;
    private final SoapVersion guessedVersion;
    private final String contentType;
    private final String action;
    private final ContentFastPath contentFastPath;

    private ReadState state = ReadState.PROLOG;
    private XmlEvents events;
    private SoapVersion envelopeVersion;
    /** {@code null} until known: ASMX's routing by body element turns XML errors into 500s until then. */
    private Operation operation;
    private String key;
    private String value;
    /** The first {@code <content>}'s reader: a second one is skipped, not read. */
    private ContentElementReader content;
    private ContentSpool spool;
    private StreamedContent streamedContent;

    /** The body's first bytes as sent, for the position of an invalid XML version. */
    private final Supplier<byte[]> bodyHead;

    /** @param contentFastPath the byte-level path for a large content, or {@code null} */
    SoapCall(String namespace, CodecLimits limits, Set<SoapVersion> enabled, SoapVersion guessedVersion,
            String contentType, String action, Operation routed, ContentFastPath contentFastPath,
            Supplier<byte[]> bodyHead) {
        this.bodyHead = bodyHead;
        this.enabled = enabled;
        this.namespace = namespace;
        this.limits = limits;
        this.guessedVersion = guessedVersion;
        this.contentType = contentType;
        this.action = action;
        this.operation = routed;
        this.contentFastPath = contentFastPath;
    }

    /** The version to answer in: the envelope's once read, else the one guessed from the headers. */
    public SoapVersion version() {
        return envelopeVersion != null ? envelopeVersion : guessedVersion;
    }

    public Operation operation() {
        return operation;
    }

    /** The {@code key} parameter; {@code null} if absent. */
    public String key() {
        return key;
    }

    /** The {@code value} parameter of WriteString; {@code null} if absent. */
    public String value() {
        return value;
    }

    /** The {@code content} of WriteBytes as a stream, or {@code null} if absent. Opened once. */
    public InputStream content() throws IOException {
        if (streamedContent != null) {
            return streamedContent;
        }
        return spool == null ? null : spool.open();
    }

    /** The fault that broke the streamed content, or {@code null}. */
    public SoapFault contentFailure() {
        return streamedContent == null ? null : streamedContent.failure();
    }

    /** Reads {@code reader}'s document up to a streamed content, or to its end. */
    void start(XMLStreamReader2 reader) throws XMLStreamException, SoapFault {
        events = new XmlEvents(reader, limits, contentFastPath, this::unreadable);
        run();
    }

    /** Called by {@link StreamedContent} at the content's end tag: reads the rest of the document. */
    void afterContent() throws XMLStreamException, SoapFault {
        state = ReadState.PARAMETERS; // the rest of the wrapper; a second <content> is skipped, not streamed
        run();
    }

    /**
     * Reads whatever the store left unread, to the end of the document, so that a broken tail is reported
     * even if the store did not read all of the content.
     */
    public void finish() throws SoapFault {
        if (state == ReadState.DONE) {
            return;
        }
        try {
            streamedContent.transferTo(OutputStream.nullOutputStream());
        } catch (IOException e) {
            throw streamedContent.failure() != null ? streamedContent.failure() : unreadable(e.getMessage());
        }
    }

    @Override
    public void close() {
        if (events != null) {
            events.close();
        }
        if (spool != null) {
            spool.close();
        }
    }

    /** Steps until the store can be called: at a streamed content, or at the end of the document. */
    private void run() throws XMLStreamException, SoapFault {
        while (state != ReadState.CONTENT && state != ReadState.DONE) {
            state = step(state);
        }
    }

    /** The one transition: reads what {@code current} says comes next, and returns the state after it. */
    private ReadState step(ReadState current) throws XMLStreamException, SoapFault {
        return switch (current) {
            case PROLOG -> readToRoot();
            case ENVELOPE -> readEnvelopeChild();
            case BODY -> readBodyToWrapper();
            case PARAMETERS -> readParameter();
            case REST -> {
                events.readToEndOfDocument();
                yield ReadState.DONE;
            }
            case CONTENT, DONE -> throw new IllegalStateException("Nothing to read in state " + current);
        };
    }

    private ReadState readToRoot() throws XMLStreamException, SoapFault {
        XMLStreamReader2 reader = events.reader();
        // .NET's XmlTextReader reads XML 1.0 only: a declaration of another version is its XmlException.
        String xmlVersion = reader.getVersion();
        if (xmlVersion != null && !xmlVersion.equals("1.0")) {
            throw xmlError("Version number '" + xmlVersion + "' is invalid." + VersionPosition.in(bodyHead.get()));
        }
        int event = events.next();
        while (event != XMLStreamConstants.START_ELEMENT) {
            if (event == XMLStreamConstants.DTD) {
                throw xmlError("For security reasons DTD is prohibited in this XML document.");
            }
            if (event == XMLStreamConstants.END_DOCUMENT) {
                throw xmlError("Root element is missing.");
            }
            event = events.next();
        }
        // As ASMX: the root's namespace picks the version (GetHelper) and an unknown one is a version mismatch
        // (CheckHelperVersion) before the root's local name is looked at (wire notes §3).
        String envelopeNamespace = reader.getNamespaceURI();
        envelopeVersion = SoapVersion.byEnvelopeNamespace(envelopeNamespace);
        // The version ASMX expects: 1.1 when HttpSoap is on, else 1.2.
        SoapVersion expected = enabled.contains(SoapVersion.SOAP_11) ? SoapVersion.SOAP_11 : SoapVersion.SOAP_12;
        if (envelopeVersion == null || !enabled.contains(envelopeVersion)) {
            // Unknown namespace: a fault in the expected version; a known version whose protocol is off: always a
            // SOAP 1.1 fault (SoapServerProtocol.CheckHelperVersion).
            SoapVersion faultVersion = envelopeVersion == null ? expected : SoapVersion.SOAP_11;
            envelopeVersion = faultVersion;
            throw new SoapFault(faultVersion, FaultCode.VERSION_MISMATCH, 500,
                    "Possible SOAP version mismatch: Envelope namespace " + envelopeNamespace
                            + " was unexpected. Expecting " + expected.envelopeNamespace() + ".");
        }
        if (envelopeVersion == SoapVersion.SOAP_11
                && ContentType.base(contentType).equals(SoapVersion.SOAP_12.mediaType())) {
            throw SoapFault.unsupportedMediaType(SoapVersion.SOAP_11, contentType);
        }
        if (!"Envelope".equals(reader.getLocalName())) {
            throw missingElement("Envelope");
        }
        return ReadState.ENVELOPE;
    }

    private ReadState readEnvelopeChild() throws XMLStreamException, SoapFault {
        if (events.nextTag() != XMLStreamConstants.START_ELEMENT) {
            throw missingElement("Body");
        }
        if (isEnvelopeElement("Body")) {
            return ReadState.BODY;
        }
        if (isEnvelopeElement("Header")) {
            checkHeadersUnderstood();
        } else {
            events.skipElement();
        }
        return ReadState.ENVELOPE;
    }

    /**
     * A missing Envelope or Body. Routing by element, ASMX finds it in GetRequestElement, whose plain
     * InvalidOperationException becomes a Server fault; routed by action, ReadParameters finds it and wraps it
     * as a Client fault "unable to read" (wire notes §3).
     */
    private SoapFault missingElement(String localName) {
        String message = "Request format is invalid: Missing required soap:" + localName + " element.";
        if (operation == null) {
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
        XMLStreamReader2 reader = events.reader();
        while (events.nextTag() == XMLStreamConstants.START_ELEMENT) {
            String mustUnderstand = reader.getAttributeValue(envelopeVersion.envelopeNamespace(), "mustUnderstand");
            if ("1".equals(mustUnderstand) || "true".equals(mustUnderstand)) {
                throw new SoapFault(envelopeVersion, FaultCode.MUST_UNDERSTAND, 500,
                        "SOAP header " + reader.getLocalName() + " was not understood.");
            }
            events.skipElement();
        }
    }

    private ReadState readBodyToWrapper() throws XMLStreamException, SoapFault {
        XMLStreamReader2 reader = events.reader();
        boolean hasChild = events.nextTag() == XMLStreamConstants.START_ELEMENT;
        if (operation == null) {
            Operation byElement = hasChild && namespace.equals(reader.getNamespaceURI())
                    ? Operation.byWireName(reader.getLocalName()) : null;
            if (byElement == null) {
                throw new SoapFault(envelopeVersion, FaultCode.CLIENT, 500, action == null ? MISSING_ACTION
                        : "Unable to handle request. The action '" + action + "' was not recognized.");
            }
            operation = byElement;
        }
        // Routed by action, ASMX's serializer skips Body children other than the wrapper as unknown nodes; with
        // no wrapper every parameter stays null. Routed by element, the first child is the wrapper.
        while (hasChild && !isWrapperOf(operation)) {
            events.skipElement();
            hasChild = events.nextTag() == XMLStreamConstants.START_ELEMENT;
        }
        return hasChild ? ReadState.PARAMETERS : ReadState.REST;
    }

    /** Reads one child of the wrapper, or its end tag. */
    private ReadState readParameter() throws XMLStreamException, SoapFault {
        XMLStreamReader2 reader = events.reader();
        if (events.nextTag() != XMLStreamConstants.START_ELEMENT) {
            return ReadState.REST;
        }
        String name = reader.getLocalName();
        if (!namespace.equals(reader.getNamespaceURI())) {
            events.skipElement();
        } else if (key == null && "key".equals(name)) {
            key = events.readText();
        } else if (operation == Operation.WRITE_STRING && value == null && "value".equals(name)) {
            value = events.readText();
        } else if (operation == Operation.WRITE_BYTES && content == null && "content".equals(name)) {
            content = new ContentElementReader(events, this::unreadable);
            if (key != null) {
                streamedContent = new StreamedContent(this, content);
                return ReadState.CONTENT;
            }
            spool = content.spool(limits.spoolMemoryBytes(), version());
        } else {
            events.skipElement();
        }
        return ReadState.PARAMETERS;
    }

    private boolean isEnvelopeElement(String localName) {
        return events.isElement(envelopeVersion.envelopeNamespace(), localName);
    }

    private boolean isWrapperOf(Operation op) {
        return events.isElement(namespace, op.wireName());
    }

    /** The fault for a parser error or a limit reached while reading the body. */
    SoapFault xmlFault(XMLStreamException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof RequestTooLargeException) {
                // ASMX raises it while first reading the body, before the envelope: in the guessed version
                return SoapFault.tooLarge(guessedVersion);
            }
        }
        if (e instanceof WstxEOFException && state == ReadState.PROLOG) {
            return xmlError("Root element is missing.");
        }
        return xmlError(XmlEvents.describe(e, contentFastPath));
    }

    /** A malformed-XML fault: 500 Server while ASMX would still be routing by element, else 400 Client. */
    private SoapFault xmlError(String message) {
        if (operation == null) {
            return new SoapFault(version(), FaultCode.SERVER, 500, ErrorPages.UNABLE_TO_PROCESS + message);
        }
        return unreadable(message);
    }

    private SoapFault unreadable(String message) {
        return SoapFault.unreadable(version(), message);
    }
}
