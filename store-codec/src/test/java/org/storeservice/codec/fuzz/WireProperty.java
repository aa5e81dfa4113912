package org.storeservice.codec.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.storeservice.api.Status;
import org.storeservice.codec.CodecResponse;
import org.storeservice.codec.wire.ErrorPages;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;
import org.xml.sax.helpers.DefaultHandler;

/**
 * The fuzz property (issue #15): every answer is one of the kinds the contract and ASMX allow, well-formed,
 * never the codec's last-resort "internal error" page (which means a RuntimeException escaped the decoders),
 * and a value is stored only by a request answered 200 with {@code Success}, exactly one per such answer.
 */
final class WireProperty {
    static final String SOAP11_ENVELOPE = "http://schemas.xmlsoap.org/soap/envelope/";
    static final String SOAP12_ENVELOPE = "http://www.w3.org/2003/05/soap-envelope";
    static final String XML = "text/xml; charset=utf-8";
    static final String SOAP12 = "application/soap+xml; charset=utf-8";
    static final String TEXT = "text/plain; charset=utf-8";
    static final String HTML = "text/html; charset=utf-8";

    /** The answers a binding may give: status to the Content-Types it may carry. */
    enum Binding {
        /** A POST to the bare endpoint path: a SOAP result or fault, in either SOAP version. */
        SOAP(Map.of(200, Set.of(XML, SOAP12), 400, Set.of(XML, SOAP12), 415, Set.of(XML, SOAP12),
                500, Set.of(XML, SOAP12))),
        /** A GET or POST with path info: the HTTP bindings, or ASP.NET's error pages for a path no protocol takes. */
        HTTP(Map.of(200, Set.of(XML), 500, Set.of(TEXT, HTML))),
        /** A GET on the bare endpoint path: WSDL, disco, help pages, or the Discovery protocol's errors. */
        METADATA(Map.of(200, Set.of(XML, HTML), 500, Set.of(TEXT)));

        private final Map<Integer, Set<String>> allowed;

        Binding(Map<Integer, Set<String>> allowed) {
            this.allowed = allowed;
        }
    }

    private static final byte[] INTERNAL_ERROR = ErrorPages.internalError().bodyBytes();
    /**
     * The numeric references to characters XML 1.0 cannot carry that {@code TextEscaping.xmlText} writes on
     * purpose, as .NET's XmlTextWriter does (a fault's reason may quote such a character from the request). They
     * are the one known way an answer is not well-formed; the check reads them as '?' and is strict otherwise.
     */
    private static final Pattern DOTNET_ILLEGAL_REFERENCE = Pattern.compile("&#x(?:[0-8BCEF]|1[0-9A-F]|FFF[EF]);");

    private final DocumentBuilder xmlParser;

    WireProperty() {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setExpandEntityReferences(false);
            xmlParser = factory.newDocumentBuilder();
            xmlParser.setErrorHandler(new DefaultHandler()); // throws on a fatal error, prints nothing
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Asserts the property for {@code response} to one request of {@code binding}, given the storage the codec's
     * store writes to (whose record of the request it takes).
     */
    void check(Binding binding, CodecResponse response, RecordingStorage storage) throws IOException {
        List<String> storedKeys = storage.takeStoredKeys();
        List<RuntimeException> contentBugs = storage.takeContentBugs();
        if (!contentBugs.isEmpty()) {
            throw new AssertionError("the codec's content stream threw " + contentBugs.get(0), contentBugs.get(0));
        }
        assertNotNull(response, "handle returned null");
        byte[] body = response.bodyBytes();
        assertFalse(response.status() == 500 && Arrays.equals(INTERNAL_ERROR, body),
                "the codec answered with its internal-error page: a RuntimeException escaped a decoder");
        for (Map.Entry<String, String> header : response.headers()) {
            assertTrue(header.getKey().chars().allMatch(c -> c > ' ' && c < 0x7f), "header name " + header);
            assertTrue(header.getValue().chars().allMatch(c -> c >= ' ' && c != 0x7f), "header value " + header);
        }
        String contentType = response.header("Content-Type");
        Set<String> allowed = binding.allowed.getOrDefault(response.status(), Set.of());
        assertTrue(allowed.contains(contentType),
                () -> binding + " may not answer " + response.status() + " " + contentType + ": " + text(body));

        String result = switch (contentType) {
            case XML, SOAP12 -> resultOf(binding, response.status(), parse(body));
            case TEXT -> {
                assertTrue(text(body).endsWith("\r\n"), "a text/plain error ends with CRLF");
                yield null;
            }
            default -> null; // HTML: ASP.NET's pages are HTML, not XML
        };
        boolean success = Status.SUCCESS.wireName().equals(result);
        assertEquals(success ? 1 : 0, storedKeys.size(),
                () -> "stored " + storedKeys + " for an answer " + response.status() + " " + result);
    }

    /** The Status a result carries, or null for a fault or a metadata document. */
    private static String resultOf(Binding binding, int status, Document document) {
        Element root = document.getDocumentElement();
        String rootNamespace = root.getNamespaceURI();
        if (SOAP11_ENVELOPE.equals(rootNamespace) || SOAP12_ENVELOPE.equals(rootNamespace)) {
            assertEquals("Envelope", root.getLocalName());
            Element payload = firstChildElement(body(root)); // a VersionMismatch fault has a Header first
            if (status != 200) {
                assertEquals("Fault", payload.getLocalName(), "a SOAP answer other than 200 is a fault");
                return null;
            }
            assertTrue(payload.getLocalName().endsWith("Response"), payload.getLocalName());
            return statusText(firstChildElement(payload));
        }
        if (binding == Binding.METADATA) {
            assertTrue(Set.of("definitions", "discovery").contains(root.getLocalName()), root.getLocalName());
            return null;
        }
        assertEquals("Status", root.getLocalName(), "the HTTP bindings answer a Status document");
        return statusText(root);
    }

    private static String statusText(Element result) {
        String text = result.getTextContent();
        Status.fromWireName(text); // throws for anything but Success or Error
        return text;
    }

    private static Element body(Element envelope) {
        for (Node child = envelope.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (child instanceof Element element && element.getLocalName().equals("Body")) {
                return element;
            }
        }
        return fail("no Body in the envelope");
    }

    private static Element firstChildElement(Element parent) {
        for (Node child = parent.getFirstChild(); child != null; child = child.getNextSibling()) {
            if (child instanceof Element element) {
                return element;
            }
        }
        return fail("no child element in " + parent.getTagName());
    }

    private Document parse(byte[] body) {
        // byte for byte (ISO-8859-1 maps each byte to one char), so that a bad UTF-8 sequence still fails the parse
        String bytes = new String(body, StandardCharsets.ISO_8859_1);
        byte[] tolerated = DOTNET_ILLEGAL_REFERENCE.matcher(bytes).replaceAll("?").getBytes(StandardCharsets.ISO_8859_1);
        try {
            return xmlParser.parse(new ByteArrayInputStream(tolerated));
        } catch (SAXException | IOException e) {
            return fail("the answer is not well-formed XML (" + e.getMessage() + "): " + text(body));
        }
    }

    private static String text(byte[] body) {
        return new String(body, StandardCharsets.UTF_8);
    }
}
