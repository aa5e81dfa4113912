package org.storeservice.codec.metadata;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilderFactory;
import org.storeservice.codec.CodecRequest;
import org.storeservice.codec.CodecResponse;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/** Shared helpers of the metadata tests: requests, a hardened DOM parser, resources. */
final class MetadataTestSupport {
    static final String ENDPOINT = "/API/Store.asmx";
    static final String XHTML = "http://www.w3.org/1999/xhtml";

    private MetadataTestSupport() {
    }

    static CodecRequest get(String rawQuery, String host) {
        CodecRequest.Builder builder = CodecRequest.builder("GET", ENDPOINT).rawQuery(rawQuery);
        if (host != null) {
            builder.header("Host", host);
        }
        return builder.build();
    }

    static CodecResponse respond(MetadataPages pages, String rawQuery, String host) {
        return pages.respond(get(rawQuery, host));
    }

    /** Parses XML with everything external off; a DOCTYPE is allowed only if {@code allowDoctype} (the HTML5 one). */
    static Document parse(byte[] xml, boolean allowDoctype) {
        try {
            DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
            factory.setNamespaceAware(true);
            factory.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
            factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", !allowDoctype);
            factory.setFeature("http://xml.org/sax/features/external-general-entities", false);
            factory.setFeature("http://xml.org/sax/features/external-parameter-entities", false);
            factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
            factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_SCHEMA, "");
            factory.setXIncludeAware(false);
            factory.setExpandEntityReferences(false);
            return factory.newDocumentBuilder().parse(new ByteArrayInputStream(xml));
        } catch (Exception e) {
            throw new AssertionError("not well-formed XML: " + e.getMessage(), e);
        }
    }

    static List<Element> elements(Document document, String namespace, String localName) {
        NodeList nodes = document.getElementsByTagNameNS(namespace, localName);
        List<Element> result = new ArrayList<>();
        for (int i = 0; i < nodes.getLength(); i++) {
            result.add((Element) nodes.item(i));
        }
        return result;
    }

    static List<String> attributes(Document document, String namespace, String localName, String attribute) {
        return elements(document, namespace, localName).stream().map(e -> e.getAttribute(attribute)).toList();
    }

    static byte[] resource(String name) {
        try (InputStream in = MetadataTestSupport.class.getResourceAsStream("/metadata/" + name)) {
            if (in == null) {
                throw new AssertionError("missing test resource /metadata/" + name);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
