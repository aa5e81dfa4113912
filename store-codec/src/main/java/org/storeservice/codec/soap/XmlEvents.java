package org.storeservice.codec.soap;

import java.util.function.Function;
import javax.xml.stream.Location;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import org.codehaus.stax2.XMLStreamReader2;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.content.fast.ContentFastPath;

/**
 * The parser events of one SOAP request, each bounded by {@link CodecLimits#maxTextLength()}, and the parser's
 * locations and messages as they are in the body as sent. When the content fast path cut a run out of the body,
 * a second parser takes over after it ({@link #resumeAfterRun()}); everything here then goes on as before.
 *
 * <p>Not thread-safe: one per request.
 */
final class XmlEvents implements AutoCloseable {
    private final int maxTextLength;
    /** The byte-level path for a large content, or {@code null}; see {@link ContentFastPath}. */
    private final ContentFastPath fastPath;
    /** The fault for a body that cannot be read, in the version known when it is raised. */
    private final Function<String, SoapFault> unreadable;
    private XMLStreamReader2 reader;
    /** Start tags read so far: the fast path's second parser finds the content again by its number. */
    private int startElements;

    XmlEvents(XMLStreamReader2 reader, CodecLimits limits, ContentFastPath fastPath,
            Function<String, SoapFault> unreadable) {
        this.reader = reader;
        this.maxTextLength = limits.maxTextLength();
        this.fastPath = fastPath;
        this.unreadable = unreadable;
    }

    /** The parser, at the current event. */
    XMLStreamReader2 reader() {
        return reader;
    }

    ContentFastPath fastPath() {
        return fastPath;
    }

    /** At the start of {@code <content>}: lets the fast path take over the content if it can. */
    void beginContent() {
        if (fastPath != null) {
            fastPath.begin(reader, startElements);
        }
    }

    /** The fast path's run is used up: its second parser goes on after it, at the same start tag. */
    void resumeAfterRun() throws XMLStreamException {
        reader = fastPath.resume();
    }

    /**
     * The next event, with comments and processing instructions bounded by {@link CodecLimits#maxTextLength()}.
     * Woodstox builds each of them whole (its text limit does not cover them, and cannot be set as it would
     * also cut the streamed base64 content), so one is refused after it was parsed, within the request size;
     * other text comes in segments no longer than its input buffer. Every event passes here, those inside
     * {@code <content>} too.
     */
    int next() throws XMLStreamException, SoapFault {
        int event = reader.next();
        switch (event) {
            case XMLStreamConstants.START_ELEMENT -> startElements++;
            case XMLStreamConstants.COMMENT -> {
                if (reader.getTextLength() > maxTextLength) {
                    throw unreadable.apply("A comment is longer than " + maxTextLength + " characters.");
                }
            }
            case XMLStreamConstants.PROCESSING_INSTRUCTION -> {
                if (reader.getPIData() != null && reader.getPIData().length() > maxTextLength) {
                    throw unreadable.apply("A processing instruction is longer than " + maxTextLength + " characters.");
                }
            }
            default -> {
                // other events carry no unbounded text of their own
            }
        }
        return event;
    }

    /** The next start or end tag, skipping text, comments and processing instructions between elements. */
    int nextTag() throws XMLStreamException, SoapFault {
        int event;
        do {
            event = next();
        } while (event != XMLStreamConstants.START_ELEMENT && event != XMLStreamConstants.END_ELEMENT);
        return event;
    }

    /** Skips the current element and its content, as {@code reader.skipElement()}, but through {@link #next()}. */
    void skipElement() throws XMLStreamException, SoapFault {
        int depth = 1;
        while (depth > 0) {
            switch (next()) {
                case XMLStreamConstants.START_ELEMENT -> depth++;
                case XMLStreamConstants.END_ELEMENT -> depth--;
                default -> {
                    // text, comments and processing instructions inside the skipped element
                }
            }
        }
    }

    /** Whether the current element is {@code localName} in {@code namespace}. */
    boolean isElement(String namespace, String localName) {
        return localName.equals(reader.getLocalName()) && namespace.equals(reader.getNamespaceURI());
    }

    /** Reads to the end of the document: the rest of the Body and Envelope, and anything after the root. */
    void readToEndOfDocument() throws XMLStreamException, SoapFault {
        while (reader.hasNext()) {
            next();
        }
    }

    /** The text of the current (parameter) element, bounded by {@link CodecLimits#maxTextLength()}. */
    String readText() throws XMLStreamException, SoapFault {
        String name = reader.getLocalName();
        String single = null; // most values come as one text event: no builder needed
        StringBuilder joined = null;
        int total = 0;
        while (true) {
            switch (next()) {
                case XMLStreamConstants.CHARACTERS, XMLStreamConstants.CDATA, XMLStreamConstants.SPACE -> {
                    int length = reader.getTextLength();
                    if (length > maxTextLength - total) {
                        throw unreadable.apply("The text of element '" + name + "' is longer than " + maxTextLength
                                + " characters.");
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
                }
                case XMLStreamConstants.START_ELEMENT -> throw unreadable.apply("Element '" + name
                        + "' must contain text only, but it contains the element '" + reader.getLocalName() + "'.");
                case XMLStreamConstants.END_ELEMENT -> {
                    return joined != null ? joined.toString() : single != null ? single : "";
                }
                // .NET reads a string parameter with ReadElementString, whose ReadString stops at any node that is
                // not text, CDATA or white space, and which then refuses an element that is not at its end.
                case XMLStreamConstants.COMMENT -> throw unreadable.apply(notSimpleContent("Comment", "<!--"));
                case XMLStreamConstants.PROCESSING_INSTRUCTION ->
                        throw unreadable.apply(notSimpleContent("ProcessingInstruction", "<?"));
                default -> {
                    // no other event comes inside an element
                }
            }
        }
    }

    /**
     * .NET's XmlException for a node of {@code nodeType} inside a parameter read with ReadElementString, at the
     * node's position as XmlTextReader gives it: its first character after the {@code markup} that opens it.
     */
    private String notSimpleContent(String nodeType, String markup) {
        return "Unexpected node type " + nodeType + ". ReadElementString method can only be called on elements with"
                + " simple or empty content." + position(reader.getLocationInfo().getStartLocation(), fastPath,
                markup.length());
    }

    /** Where the current event starts, as " Line l, position p." of the body as sent. */
    String currentPosition() {
        return position(reader.getLocationInfo().getStartLocation(), fastPath, 0);
    }

    /**
     * A parser message in .NET's style: the first line of the message, then "Line l, position p.", about the
     * body as sent. Static: the parser may fail before there are events, when it reads the XML declaration.
     */
    static String describe(XMLStreamException e, ContentFastPath fastPath) {
        String message = firstLine(e.getMessage());
        if (fastPath != null) {
            message = fastPath.message(message); // the fast path's parser did not see the run
        }
        if (e.getLocation() == null || e.getLocation().getLineNumber() < 0) {
            return message;
        }
        return message + position(e.getLocation(), fastPath, 0);
    }

    /** The line and column of a parser location in the body as sent (the fast path's parser may have skipped lines). */
    private static String position(Location at, ContentFastPath fastPath, int skipped) {
        int line = fastPath == null ? at.getLineNumber() : fastPath.line(at);
        int column = fastPath == null ? at.getColumnNumber() : fastPath.column(at);
        return " Line " + line + ", position " + (column + skipped) + '.';
    }

    private static String firstLine(String message) {
        if (message == null) {
            return "The request is not well-formed XML.";
        }
        int newline = message.indexOf('\n');
        return (newline >= 0 ? message.substring(0, newline) : message).trim();
    }

    @Override
    public void close() {
        try {
            reader.close();
        } catch (XMLStreamException e) {
            // nothing to recover: the input belongs to the server adapter
        }
    }
}
