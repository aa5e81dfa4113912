package org.storeservice.codec.wire;

import com.ctc.wstx.api.WstxInputProperties;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.PushbackInputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamException;
import org.codehaus.stax2.XMLInputFactory2;
import org.codehaus.stax2.XMLStreamReader2;
import org.storeservice.codec.CodecLimits;

/**
 * The hardened Woodstox factory, built once per codec: no DTD is processed (and the SOAP reader rejects
 * any DOCTYPE), no external entity is ever resolved, entity expansion cannot happen, and element depth,
 * element count, attributes per element and attribute size are bounded by {@link CodecLimits}.
 * Thread-safe once built; each request gets its own reader.
 */
public final class XmlReaders {
    private final XMLInputFactory2 factory;

    public XmlReaders(CodecLimits limits) {
        XMLInputFactory2 f = newWoodstoxFactory();
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_VALIDATING, false);
        f.setProperty(XMLInputFactory.IS_COALESCING, false);
        f.setXMLResolver((publicId, systemId, baseUri, namespace) -> {
            throw new XMLStreamException("External entities are not resolved: " + systemId);
        });
        f.setProperty(XMLInputFactory2.P_AUTO_CLOSE_INPUT, false);
        f.setProperty(XMLInputFactory2.P_REPORT_PROLOG_WHITESPACE, false);
        // Eager text parsing: a lazy reader reports errors inside text (malformed input, the request size
        // limit) later, from getText(), as an unchecked WstxLazyException that would escape the fault mapping.
        f.setProperty(XMLInputFactory2.P_LAZY_PARSING, false);
        f.setProperty(WstxInputProperties.P_MAX_ELEMENT_DEPTH, limits.maxElementDepth());
        f.setProperty(WstxInputProperties.P_MAX_ELEMENT_COUNT, (long) limits.maxElementCount());
        f.setProperty(WstxInputProperties.P_MAX_ATTRIBUTES_PER_ELEMENT, limits.maxAttributesPerElement());
        f.setProperty(WstxInputProperties.P_MAX_ATTRIBUTE_SIZE, limits.maxAttributeValueLength());
        // Woodstox's own text limit would also cut a long base64 <content> (it counts text across segments), which
        // is streamed, and it does not cover comments or processing instructions. So the SOAP reader bounds key and value
        // text, comments and processing instructions itself (CodecLimits.maxTextLength); other text reaches it in
        // segments no longer than the parser's input buffer, and the request size bounds the total.
        f.setProperty(WstxInputProperties.P_MAX_TEXT_LENGTH, Integer.MAX_VALUE);
        this.factory = f;
    }

    /**
     * Woodstox itself, not XMLInputFactory.newInstance(), so the classpath cannot swap the parser. By name,
     * once per codec: naming the class in source makes javac warn about its optional OSGi annotation.
     */
    private static XMLInputFactory2 newWoodstoxFactory() {
        try {
            return (XMLInputFactory2) Class.forName("com.ctc.wstx.stax.WstxInputFactory")
                    .getDeclaredConstructor().newInstance();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("Woodstox (com.fasterxml.woodstox:woodstox-core) is not available", e);
        }
    }

    /**
     * A reader over {@code body}. With a {@code charset} from the Content-Type the body is decoded in it, unless it
     * starts with a byte-order mark, whose encoding wins, and the XML declaration's encoding is ignored: ASMX reads
     * the body through {@code new StreamReader(stream, charset, detectEncodingFromByteOrderMarks: true)}
     * ({@code SoapServerProtocol.GetReaderForMessage}). Without one, the encoding is detected from a BOM or the XML
     * declaration, defaulting to UTF-8.
     */
    public XMLStreamReader2 open(InputStream body, Charset charset) throws XMLStreamException {
        if (charset == null) {
            return (XMLStreamReader2) factory.createXMLStreamReader(body);
        }
        PushbackInputStream input = new PushbackInputStream(body, 4);
        Charset marked;
        try {
            marked = ByteOrderMark.skip(input);
        } catch (IOException e) {
            throw new XMLStreamException(e.getMessage(), e);
        }
        // .NET's "utf-16" is Encoding.Unicode, little-endian; Java's UTF-16 reads a body without a BOM as big-endian.
        Charset effective = marked != null ? marked
                : charset.equals(StandardCharsets.UTF_16) ? StandardCharsets.UTF_16LE : charset;
        if (effective.equals(StandardCharsets.UTF_8)) {
            if (marked != null) {
                try {
                    input.unread(ByteOrderMark.UTF_8_BOM); // Woodstox skips it, and counts byte offsets with it
                } catch (IOException e) {
                    throw new XMLStreamException(e.getMessage(), e);
                }
            }
            return (XMLStreamReader2) factory.createXMLStreamReader(input, "UTF-8");
        }
        return (XMLStreamReader2) factory.createXMLStreamReader(new InputStreamReader(input, effective));
    }
}
