package org.storeservice.codec.metadata;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.storeservice.codec.metadata.MetadataTestSupport.attributes;
import static org.storeservice.codec.metadata.MetadataTestSupport.elements;
import static org.storeservice.codec.metadata.MetadataTestSupport.parse;
import static org.storeservice.codec.metadata.MetadataTestSupport.resource;
import static org.storeservice.codec.metadata.MetadataTestSupport.respond;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.wsdl.Binding;
import javax.wsdl.BindingOperation;
import javax.wsdl.Definition;
import javax.wsdl.Port;
import javax.wsdl.Service;
import javax.wsdl.extensions.ExtensibilityElement;
import javax.wsdl.extensions.soap.SOAPAddress;
import javax.wsdl.extensions.soap.SOAPOperation;
import javax.wsdl.extensions.soap12.SOAP12Address;
import javax.wsdl.extensions.soap12.SOAP12Operation;
import javax.wsdl.factory.WSDLFactory;
import javax.wsdl.xml.WSDLReader;
import javax.xml.namespace.QName;
import org.junit.jupiter.api.Test;
import org.storeservice.codec.CodecRequest;
import org.storeservice.codec.CodecResponse;
import org.storeservice.codec.StoreCodec;
import org.storeservice.codec.wire.Operation;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

class WsdlDocumentTest {
    private static final String WSDL = "http://schemas.xmlsoap.org/wsdl/";
    private static final String XSD = "http://www.w3.org/2001/XMLSchema";
    private static final String SOAP = "http://schemas.xmlsoap.org/wsdl/soap/";
    private static final String SOAP12 = "http://schemas.xmlsoap.org/wsdl/soap12/";
    private static final String HTTP = "http://schemas.xmlsoap.org/wsdl/http/";

    @Test
    void defaultNamespaceWsdlIsByteForByteTheGoldenFile() {
        CodecResponse response = respond(new MetadataPages(StoreCodec.DEFAULT_NAMESPACE, "/API/Store.asmx"),
                "WSDL", "localhost:8080");

        assertEquals(200, response.status());
        assertEquals(List.of(Map.entry("Cache-Control", "private, max-age=0"),
                Map.entry("Content-Type", "text/xml; charset=utf-8")), response.headers());
        assertArrayEquals(resource("store-tempuri-localhost-8080.wsdl"), response.bodyBytes());
    }

    @Test
    void goldenFileHasTheAsmxWriterFormat() {
        byte[] golden = resource("store-tempuri-localhost-8080.wsdl");
        String text = new String(golden, StandardCharsets.UTF_8);

        assertFalse(golden[0] == (byte) 0xEF, "no BOM");
        assertEquals(text.split("\n", -1).length, text.split("\r\n", -1).length, "every line ends in CRLF");
        assertFalse(text.endsWith("\n"), "no line end after the root element, as XmlTextWriter");
        String[] lines = text.split("\r\n");
        assertEquals("<?xml version=\"1.0\" encoding=\"utf-8\"?>", lines[0]);
        int depth = 0;
        for (int i = 1; i < lines.length; i++) {
            String line = lines[i].stripLeading();
            if (line.startsWith("</")) {
                depth--;
            }
            assertEquals(2 * depth, lines[i].length() - line.length(), "indentation of line " + (i + 1));
            assertEquals(1, line.chars().filter(c -> c == '<').count(), "one element per line: " + line);
            if (!line.startsWith("</") && !line.endsWith(" />")) {
                depth++;
            }
        }
        assertEquals(0, depth);
    }

    @Test
    void goldenFileFollowsTheAsmxSchemaOrder() {
        Document wsdl = parse(resource("store-tempuri-localhost-8080.wsdl"), false);
        Element mainSchema = elements(wsdl, XSD, "schema").get(0);
        List<String> topLevel = new ArrayList<>();
        for (Node n = mainSchema.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                topLevel.add(e.getLocalName() + ":" + e.getAttribute("name"));
            }
        }
        assertEquals(List.of("element:WriteString", "element:WriteStringResponse", "simpleType:Status",
                "element:WriteBytes", "element:WriteBytesResponse", "element:Status"), topLevel);
        assertEquals("qualified", mainSchema.getAttribute("elementFormDefault"));
        // reference types (string, byte[]) are optional, the enum result is required; maxOccurs always written
        assertEquals(List.of("key=0..1", "value=0..1", "WriteStringResult=1..1", "key=0..1", "content=0..1",
                "WriteBytesResult=1..1", "String=0..unbounded"), minOccursInOrder(wsdl));
    }

    private static List<String> minOccursInOrder(Document wsdl) {
        return elements(wsdl, XSD, "element").stream().filter(e -> e.hasAttribute("minOccurs"))
                .map(e -> e.getAttribute("name") + "=" + e.getAttribute("minOccurs") + ".." + e.getAttribute("maxOccurs"))
                .toList();
    }

    @Test
    void nonDefaultNamespaceWithoutSlashBuildsActionsAndAbstractTypesWithASlash() {
        Document wsdl = wsdlFor("urn:example:store", "store.example.com:8443", "https");
        Element definitions = wsdl.getDocumentElement();

        assertEquals("urn:example:store", definitions.getAttribute("targetNamespace"));
        assertEquals("urn:example:store", definitions.getAttribute("xmlns:tns"));
        assertEquals("urn:example:store/AbstractTypes", definitions.getAttribute("xmlns:s1"));
        assertEquals(List.of("urn:example:store", "urn:example:store/AbstractTypes"),
                attributes(wsdl, XSD, "schema", "targetNamespace"));
        assertEquals(List.of("urn:example:store/WriteString", "urn:example:store/WriteBytes"),
                attributes(wsdl, SOAP, "operation", "soapAction"));
        assertEquals(List.of("urn:example:store/WriteString", "urn:example:store/WriteBytes"),
                attributes(wsdl, SOAP12, "operation", "soapAction"));
        assertEquals(List.of("StoreSoap", "StoreSoap12", "StoreHttpGet", "StoreHttpPost"),
                attributes(wsdl, WSDL, "binding", "name"));
        assertEquals(List.of("StoreSoap", "StoreHttpGet", "StoreHttpPost"), attributes(wsdl, WSDL, "portType", "name"));
        assertEquals(List.of("tns:StoreSoap", "tns:StoreSoap", "tns:StoreHttpGet", "tns:StoreHttpPost"),
                attributes(wsdl, WSDL, "binding", "type"));
        assertEquals(List.of("Store"), attributes(wsdl, WSDL, "service", "name"));
        String address = "https://store.example.com:8443/API/Store.asmx";
        assertEquals(List.of(address), attributes(wsdl, SOAP, "address", "location"));
        assertEquals(List.of(address), attributes(wsdl, SOAP12, "address", "location"));
        assertEquals(List.of(address, address), attributes(wsdl, HTTP, "address", "location"));
        // the prefixes resolve: tns:Status and s1:StringArray point into the two schemas
        assertEquals("urn:example:store", definitions.lookupNamespaceURI("tns"));
        assertEquals("urn:example:store/AbstractTypes", definitions.lookupNamespaceURI("s1"));
    }

    @Test
    void namespaceEndingWithSlashGetsNoDoubleSlash() {
        Document wsdl = wsdlFor("http://example.com/store/", "h", "http");

        assertEquals("http://example.com/store/AbstractTypes", wsdl.getDocumentElement().getAttribute("xmlns:s1"));
        assertEquals(List.of("http://example.com/store/WriteString", "http://example.com/store/WriteBytes"),
                attributes(wsdl, SOAP, "operation", "soapAction"));
    }

    @Test
    void namespaceWithMarkupCharactersIsEscapedAndSurvivesParsing() {
        String namespace = "urn:a&b\"<c>'d";
        Document wsdl = wsdlFor(namespace, "h", "http");

        assertEquals(namespace, wsdl.getDocumentElement().getAttribute("targetNamespace"));
        assertEquals(namespace + "/WriteString", attributes(wsdl, SOAP, "operation", "soapAction").get(0));
        assertEquals(namespace + "/AbstractTypes", attributes(wsdl, XSD, "schema", "targetNamespace").get(1));
    }

    @Test
    void asmxActionAndAbstractTypesRules() {
        assertEquals("http://tempuri.org/WriteString", Operation.WRITE_STRING.soapAction("http://tempuri.org/"));
        assertEquals("urn:x/WriteBytes", Operation.WRITE_BYTES.soapAction("urn:x"));
        assertEquals("http://tempuri.org/AbstractTypes", WsdlDocument.abstractTypesNamespace("http://tempuri.org/"));
        assertEquals("urn:x/AbstractTypes", WsdlDocument.abstractTypesNamespace("urn:x"));
    }

    @Test
    void aRealWsdlReaderSeesFourBindingsThreePortTypesAndOneServiceWithFourPorts() throws Exception {
        byte[] body = respond(new MetadataPages("urn:example:store", "/API/Store.asmx"), "wsdl", "localhost:8080")
                .bodyBytes();
        WSDLReader reader = WSDLFactory.newInstance().newWSDLReader();
        reader.setFeature("javax.wsdl.verbose", false);
        reader.setFeature("javax.wsdl.importDocuments", false);
        Definition definition = reader.readWSDL(null, parse(body, false));

        String ns = "urn:example:store";
        assertEquals(4, definition.getBindings().size());
        assertEquals(3, definition.getPortTypes().size());
        assertEquals(12, definition.getMessages().size());
        assertEquals(1, definition.getServices().size());
        Service service = definition.getService(new QName(ns, "Store"));
        assertNotNull(service);
        assertEquals(4, service.getPorts().size());

        Port soapPort = service.getPort("StoreSoap");
        assertEquals("http://localhost:8080/API/Store.asmx", ((SOAPAddress) only(soapPort.getExtensibilityElements())).getLocationURI());
        Port soap12Port = service.getPort("StoreSoap12");
        assertEquals("http://localhost:8080/API/Store.asmx", ((SOAP12Address) only(soap12Port.getExtensibilityElements())).getLocationURI());

        Binding soap = definition.getBinding(new QName(ns, "StoreSoap"));
        BindingOperation writeBytes = soap.getBindingOperation("WriteBytes", null, null);
        assertEquals(ns + "/WriteBytes", ((SOAPOperation) only(writeBytes.getExtensibilityElements())).getSoapActionURI());
        Binding soap12 = definition.getBinding(new QName(ns, "StoreSoap12"));
        assertEquals(new QName(ns, "StoreSoap"), soap12.getPortType().getQName());
        BindingOperation writeString12 = soap12.getBindingOperation("WriteString", null, null);
        assertEquals(ns + "/WriteString", ((SOAP12Operation) only(writeString12.getExtensibilityElements())).getSoapActionURI());
        assertEquals(new QName(ns + "/AbstractTypes", "StringArray"),
                definition.getMessage(new QName(ns, "WriteBytesHttpGetIn")).getPart("content").getTypeName());
    }

    private static ExtensibilityElement only(List<?> elements) {
        assertEquals(1, elements.size());
        return (ExtensibilityElement) elements.get(0);
    }

    private static Document wsdlFor(String namespace, String host, String scheme) {
        CodecRequest request = CodecRequest.builder("GET", "/API/Store.asmx").rawQuery("wsdl").scheme(scheme)
                .header("Host", host).build();
        CodecResponse response = new MetadataPages(namespace, "/API/Store.asmx").respond(request);
        assertEquals(200, response.status());
        return parse(response.bodyBytes(), false);
    }
}
