package org.storeservice.codec.metadata;

import java.io.IOException;
import java.io.StringReader;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import org.storeservice.codec.InvalidWsdlException;
import org.storeservice.codec.Protocol;
import org.storeservice.codec.Protocols;
import org.storeservice.codec.wire.Operation;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.InputSource;
import org.xml.sax.SAXException;

/**
 * An operator's own WSDL, served on {@code ?wsdl} instead of the generated one: checked once, when the codec
 * is built, to describe this service, then served as it was written except for the ports' addresses, which
 * are replaced with the address the client used (as ASMX rewrites its own). Immutable.
 *
 * <p>The check: well-formed XML without a DTD, {@code wsdl:definitions} in the codec's namespace, and for
 * every enabled protocol among HttpSoap, HttpSoap12, HttpGet, HttpPost its binding ({@code StoreSoap},
 * {@code StoreSoap12}, {@code StoreHttpGet}, {@code StoreHttpPost}) of the right kind, with a port; each
 * binding and its portType have exactly the operations WriteString and WriteBytes, and their messages carry
 * what this service reads and writes (SOAP: the wrapper elements; HTTP: the parameters by name).
 */
final class OperatorWsdl {
    /** Far above any WSDL of this service (the generated one is about 12 KB); bounds what is parsed and held. */
    static final int MAX_CHARS = 1 << 20;

    private static final String WSDL = "http://schemas.xmlsoap.org/wsdl/";
    private static final String SOAP = "http://schemas.xmlsoap.org/wsdl/soap/";
    private static final String SOAP12 = "http://schemas.xmlsoap.org/wsdl/soap12/";
    private static final String HTTP = "http://schemas.xmlsoap.org/wsdl/http/";
    private static final Map<Protocol, String> BINDINGS = Map.of(Protocol.HTTP_SOAP, "StoreSoap",
            Protocol.HTTP_SOAP12, "StoreSoap12", Protocol.HTTP_GET, "StoreHttpGet", Protocol.HTTP_POST, "StoreHttpPost");
    private static final List<Protocol> DESCRIBED =
            List.of(Protocol.HTTP_SOAP, Protocol.HTTP_SOAP12, Protocol.HTTP_GET, Protocol.HTTP_POST);
    /** The start tag of a port's address element; group 1 is its prefix. */
    private static final Pattern ADDRESS_TAG = Pattern.compile("<(?:([\\w.-]+):)?address\\b[^>]*>");
    private static final Pattern LOCATION = Pattern.compile("(\\slocation\\s*=\\s*)(\"[^\"]*\"|'[^']*')");

    /** The document cut at each port address's location value: one more segment than addresses. */
    private final List<String> segments;

    private OperatorWsdl(List<String> segments) {
        this.segments = List.copyOf(segments);
    }

    /** {@code bytes} as text: UTF-8, with or without its BOM (the WSDL is served as UTF-8). */
    static String decode(byte[] bytes) {
        int start = bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB && (bytes[2] & 0xFF) == 0xBF ? 3 : 0;
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, start, bytes.length - start)).toString();
        } catch (CharacterCodingException e) {
            throw new InvalidWsdlException("not UTF-8 text (save it as UTF-8)");
        }
    }

    /**
     * Checks {@code document} against the service in {@code namespace} with {@code protocols} on.
     *
     * @throws InvalidWsdlException saying what is wrong
     */
    static OperatorWsdl parse(String document, String namespace, Protocols protocols) {
        String text = document.startsWith("\uFEFF") ? document.substring(1) : document;
        if (text.length() > MAX_CHARS) {
            throw invalid("larger than " + MAX_CHARS + " characters");
        }
        Element definitions = parseXml(text).getDocumentElement();
        if (!isElement(definitions, WSDL, "definitions")) {
            throw invalid("the root element is not wsdl:definitions (" + WSDL + ")");
        }
        String targetNamespace = definitions.getAttribute("targetNamespace");
        if (!namespace.equals(targetNamespace)) {
            throw invalid("targetNamespace is '" + targetNamespace + "', but the service's namespace is '" + namespace + "'");
        }
        for (Protocol protocol : DESCRIBED) {
            if (protocols.contains(protocol)) {
                checkBinding(definitions, namespace, protocol);
            }
        }
        List<Element> addresses = new ArrayList<>();
        for (Element service : children(definitions, WSDL, "service")) {
            for (Element port : children(service, WSDL, "port")) {
                addresses.addAll(addressElements(port));
            }
        }
        return new OperatorWsdl(cutAtAddresses(text, addresses));
    }

    /** The document for a client that reached the endpoint at {@code address} (absolute, percent-encoded). */
    String render(String address) {
        String value = MetadataEscaping.markup(address);
        StringBuilder out = new StringBuilder(segments.stream().mapToInt(String::length).sum() + 8 * value.length());
        out.append(segments.get(0));
        for (int i = 1; i < segments.size(); i++) {
            out.append(value).append(segments.get(i));
        }
        return out.toString();
    }

    private static void checkBinding(Element definitions, String namespace, Protocol protocol) {
        String name = BINDINGS.get(protocol);
        Element binding = named(definitions, "binding", name)
                .orElseThrow(() -> invalid("no binding '" + name + "' for protocol " + protocol
                        + " (switch the protocol off, or describe it)"));
        String kindNamespace = switch (protocol) {
            case HTTP_SOAP -> SOAP;
            case HTTP_SOAP12 -> SOAP12;
            default -> HTTP;
        };
        if (children(binding, kindNamespace, "binding").isEmpty()) {
            throw invalid("binding '" + name + "' has no binding element in " + kindNamespace);
        }
        boolean soap = protocol == Protocol.HTTP_SOAP || protocol == Protocol.HTTP_SOAP12;
        if (!soap) {
            String verb = children(binding, HTTP, "binding").get(0).getAttribute("verb");
            String expected = protocol == Protocol.HTTP_GET ? "GET" : "POST";
            if (!expected.equals(verb)) {
                throw invalid("binding '" + name + "' has http:binding verb '" + verb + "', expected '" + expected + "'");
            }
        }
        checkOperationNames("binding '" + name + "'", children(binding, WSDL, "operation"));
        for (Element operation : children(binding, WSDL, "operation")) {
            if (soap) {
                Operation op = Operation.byWireName(operation.getAttribute("name"));
                List<Element> soapOperation = children(operation, kindNamespace, "operation");
                String action = soapOperation.isEmpty() ? null : soapOperation.get(0).getAttribute("soapAction");
                if (!op.soapAction(namespace).equals(action)) {
                    throw invalid("binding '" + name + "' operation " + op.wireName() + " has soapAction '" + action
                            + "', but the service's is '" + op.soapAction(namespace) + "'");
                }
            }
        }
        String portTypeName = localName(binding, binding.getAttribute("type"), namespace, "binding '" + name + "' type");
        Element portType = named(definitions, "portType", portTypeName)
                .orElseThrow(() -> invalid("binding '" + name + "' refers to portType '" + portTypeName + "', which is missing"));
        checkOperationNames("portType '" + portTypeName + "'", children(portType, WSDL, "operation"));
        for (Element operation : children(portType, WSDL, "operation")) {
            Operation op = Operation.byWireName(operation.getAttribute("name"));
            checkMessage(definitions, namespace, portTypeName, operation, op, "input", soap);
            checkMessage(definitions, namespace, portTypeName, operation, op, "output", soap);
        }
        boolean hasPort = children(definitions, WSDL, "service").stream()
                .flatMap(service -> children(service, WSDL, "port").stream())
                .anyMatch(port -> name.equals(localName(port, port.getAttribute("binding"), namespace, "port binding"))
                        && !addressElements(port).isEmpty());
        if (!hasPort) {
            throw invalid("no wsdl:port with an address for binding '" + name + "'");
        }
    }

    private static void checkOperationNames(String where, List<Element> operations) {
        List<String> names = operations.stream().map(o -> o.getAttribute("name")).sorted().toList();
        if (!names.equals(List.of("WriteBytes", "WriteString"))) {
            throw invalid(where + " has operations " + names + ", expected exactly [WriteBytes, WriteString]");
        }
    }

    private static void checkMessage(Element definitions, String namespace, String portType, Element operation,
            Operation op, String direction, boolean soap) {
        String where = "portType '" + portType + "' operation " + op.wireName() + " " + direction;
        List<Element> refs = children(operation, WSDL, direction);
        if (refs.isEmpty()) {
            throw invalid(where + " is missing");
        }
        String messageName = localName(refs.get(0), refs.get(0).getAttribute("message"), namespace, where + " message");
        Element message = named(definitions, "message", messageName)
                .orElseThrow(() -> invalid(where + " refers to message '" + messageName + "', which is missing"));
        List<Element> parts = children(message, WSDL, "part");
        String describedAs;
        String expected;
        if (soap) {
            String wrapper = direction.equals("input") ? op.wireName() : op.wireName() + "Response";
            describedAs = parts.size() == 1 && parts.get(0).hasAttribute("element")
                    ? "element " + localName(parts.get(0), parts.get(0).getAttribute("element"), namespace, where) : "other parts";
            expected = "element " + wrapper;
        } else if (direction.equals("input")) {
            describedAs = "parts " + parts.stream().map(p -> p.getAttribute("name")).toList();
            expected = "parts " + (op == Operation.WRITE_STRING ? List.of("key", "value") : List.of("key", "content"));
        } else {
            describedAs = parts.size() + " part(s)";
            expected = "1 part(s)";
        }
        if (!describedAs.equals(expected)) {
            throw invalid("message '" + messageName + "' (" + where + ") has " + describedAs + ", expected " + expected);
        }
    }

    /** The local name of QName {@code value} if it is in {@code namespace}; else a clear error. */
    private static String localName(Element context, String value, String namespace, String what) {
        int colon = value.indexOf(':');
        String prefix = colon < 0 ? null : value.substring(0, colon);
        String uri = context.lookupNamespaceURI(prefix);
        if (!namespace.equals(uri)) {
            throw invalid(what + " '" + value + "' is not in the service's namespace '" + namespace + "'");
        }
        return value.substring(colon + 1);
    }

    private static Optional<Element> named(Element definitions, String kind, String name) {
        return children(definitions, WSDL, kind).stream().filter(e -> name.equals(e.getAttribute("name"))).findFirst();
    }

    private static List<Element> addressElements(Element port) {
        List<Element> found = new ArrayList<>();
        for (String ns : List.of(SOAP, SOAP12, HTTP)) {
            found.addAll(children(port, ns, "address"));
        }
        return found;
    }

    /**
     * {@code text} cut around the {@code location} value of each port address start tag (the quotes stay in
     * the segments). Fails unless exactly the address elements the parser found were cut.
     */
    private static List<String> cutAtAddresses(String text, List<Element> addresses) {
        Set<String> prefixes = new HashSet<>();
        for (Element address : addresses) {
            prefixes.add(address.getPrefix() == null ? "" : address.getPrefix());
        }
        List<String> segments = new ArrayList<>();
        Matcher tag = ADDRESS_TAG.matcher(text);
        int from = 0;
        while (tag.find()) {
            Matcher location = LOCATION.matcher(tag.group());
            if (!prefixes.contains(tag.group(1) == null ? "" : tag.group(1)) || !location.find()) {
                continue;
            }
            segments.add(text.substring(from, tag.start() + location.start(2) + 1));
            from = tag.start() + location.end(2) - 1;
        }
        segments.add(text.substring(from));
        if (segments.size() - 1 != addresses.size()) {
            throw invalid("found " + addresses.size() + " port address(es) but could locate " + (segments.size() - 1)
                    + " in the text (write each as <prefix:address location=\"...\" />)");
        }
        return segments;
    }

    private static Document parseXml(String text) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            factory.setXIncludeAware(false);
            factory.setExpandEntityReferences(false);
            var builder = factory.newDocumentBuilder();
            builder.setErrorHandler(new org.xml.sax.helpers.DefaultHandler() {
                @Override
                public void fatalError(org.xml.sax.SAXParseException e) throws SAXException {
                    throw e; // not printed to stderr, as the JDK's default handler would
                }
            });
            return builder.parse(new InputSource(new StringReader(text)));
        } catch (SAXException e) {
            throw invalid("not well-formed XML (or has a DTD): " + e.getMessage());
        } catch (ParserConfigurationException | IOException e) {
            throw new IllegalStateException("cannot set up the XML parser", e);
        }
    }

    private static List<Element> children(Element parent, String namespace, String localName) {
        List<Element> found = new ArrayList<>();
        for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
            if (node instanceof Element element && isElement(element, namespace, localName)) {
                found.add(element);
            }
        }
        return found;
    }

    private static boolean isElement(Element element, String namespace, String localName) {
        return namespace.equals(element.getNamespaceURI()) && localName.equals(element.getLocalName());
    }

    private static InvalidWsdlException invalid(String reason) {
        return new InvalidWsdlException(reason);
    }
}
