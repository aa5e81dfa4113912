package org.storeservice.codec.metadata;

import java.util.List;
import java.util.Map;
import org.storeservice.codec.Protocol;
import org.storeservice.codec.Protocols;
import org.storeservice.codec.wire.Operation;

/**
 * The service description served on {@code ?WSDL}: the WSDL 1.1 document ASMX reflects from
 * {@code Store.WriteString(string, string)} and {@code Store.WriteBytes(string, byte[])} with the enabled
 * protocols among SOAP 1.1, SOAP 1.2, HTTP GET and HTTP POST (wire notes §5, §7). Written as ASMX writes it: UTF-8 without
 * BOM, every element on its own line, two-space indentation, CRLF line ends, no final line end.
 *
 * <p>The namespace is bound once, in the constructor; {@link #render} only inserts the address. Immutable.
 */
final class WsdlDocument {
    private static final String DEFINITIONS = """
            <?xml version="1.0" encoding="utf-8"?>
            <wsdl:definitions xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:tm="http://microsoft.com/wsdl/mime/textMatching/" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:mime="http://schemas.xmlsoap.org/wsdl/mime/" xmlns:tns="{{tns}}" $s1xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:http="http://schemas.xmlsoap.org/wsdl/http/" targetNamespace="{{tns}}" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">
              <wsdl:types>
                <s:schema elementFormDefault="qualified" targetNamespace="{{tns}}">
            """;

    /** The SOAP wrappers; the simple type Status follows the element that first uses it. */
    private static final String SOAP_ELEMENTS = """
                  <s:element name="WriteString">
                    <s:complexType>
                      <s:sequence>
                        <s:element minOccurs="0" maxOccurs="1" name="key" type="s:string" />
                        <s:element minOccurs="0" maxOccurs="1" name="value" type="s:string" />
                      </s:sequence>
                    </s:complexType>
                  </s:element>
                  <s:element name="WriteStringResponse">
                    <s:complexType>
                      <s:sequence>
                        <s:element minOccurs="1" maxOccurs="1" name="WriteStringResult" type="tns:Status" />
                      </s:sequence>
                    </s:complexType>
                  </s:element>
            """ + "$statusType" + """
                  <s:element name="WriteBytes">
                    <s:complexType>
                      <s:sequence>
                        <s:element minOccurs="0" maxOccurs="1" name="key" type="s:string" />
                        <s:element minOccurs="0" maxOccurs="1" name="content" type="s:base64Binary" />
                      </s:sequence>
                    </s:complexType>
                  </s:element>
                  <s:element name="WriteBytesResponse">
                    <s:complexType>
                      <s:sequence>
                        <s:element minOccurs="1" maxOccurs="1" name="WriteBytesResult" type="tns:Status" />
                      </s:sequence>
                    </s:complexType>
                  </s:element>
            """;

    private static final String STATUS_TYPE = """
                  <s:simpleType name="Status">
                    <s:restriction base="s:string">
                      <s:enumeration value="Success" />
                      <s:enumeration value="Error" />
                    </s:restriction>
                  </s:simpleType>
            """;

    /** The HTTP bindings' return element (MimeXmlReflector exports it after the SOAP reflectors' elements). */
    private static final String STATUS_ELEMENT = """
                  <s:element name="Status" type="tns:Status" />
            """;

    /** The schema of the HTTP bindings' array parameters; only with HttpGet or HttpPost. */
    private static final String ABSTRACT_TYPES = """
                <s:schema targetNamespace="{{abstractTypes}}">
                  <s:import namespace="http://schemas.xmlsoap.org/soap/encoding/" />
                  <s:complexType name="StringArray">
                    <s:complexContent mixed="false">
                      <s:restriction base="soapenc:Array">
                        <s:sequence>
                          <s:element minOccurs="0" maxOccurs="unbounded" name="String" type="s:string" />
                        </s:sequence>
                      </s:restriction>
                    </s:complexContent>
                  </s:complexType>
                </s:schema>
            """;

    /** The two operations, in the order ASMX lists them. */
    private static final List<String> OPERATIONS = List.of("WriteString", "WriteBytes");

    private static String soapMessages(String protocol) {
        return perOperation("""
                  <wsdl:message name="$op%1$sIn">
                    <wsdl:part name="parameters" element="tns:$op" />
                  </wsdl:message>
                  <wsdl:message name="$op%1$sOut">
                    <wsdl:part name="parameters" element="tns:$opResponse" />
                  </wsdl:message>
                """.formatted(protocol));
    }

    private static String httpMessages(String protocol) {
        return perOperation("""
                  <wsdl:message name="$op%1$sIn">
                    <wsdl:part name="key" type="s:string" />
                    $secondPart
                  </wsdl:message>
                  <wsdl:message name="$op%1$sOut">
                    <wsdl:part name="Body" element="tns:Status" />
                  </wsdl:message>
                """.formatted(protocol));
    }

    private static String portType(String protocol) {
        return """
                  <wsdl:portType name="Store%1$s">
                """.formatted(protocol) + perOperation("""
                    <wsdl:operation name="$op">
                      <wsdl:input message="tns:$op%1$sIn" />
                      <wsdl:output message="tns:$op%1$sOut" />
                    </wsdl:operation>
                """.formatted(protocol)) + """
                  </wsdl:portType>
                """;
    }

    private static String soapBinding(String prefix, String name, String portType) {
        return """
                  <wsdl:binding name="%2$s" type="tns:%3$s">
                    <%1$s:binding transport="http://schemas.xmlsoap.org/soap/http" />
                """.formatted(prefix, name, portType) + perOperation("""
                    <wsdl:operation name="$op">
                      <%1$s:operation soapAction="$action" style="document" />
                      <wsdl:input>
                        <%1$s:body use="literal" />
                      </wsdl:input>
                      <wsdl:output>
                        <%1$s:body use="literal" />
                      </wsdl:output>
                    </wsdl:operation>
                """.formatted(prefix)) + """
                  </wsdl:binding>
                """;
    }

    private static String httpBinding(String protocol, String verb, String input) {
        return """
                  <wsdl:binding name="Store%1$s" type="tns:Store%1$s">
                    <http:binding verb="%2$s" />
                """.formatted(protocol, verb) + perOperation("""
                    <wsdl:operation name="$op">
                      <http:operation location="/$op" />
                      <wsdl:input>
                        %1$s
                      </wsdl:input>
                      <wsdl:output>
                        <mime:mimeXml part="Body" />
                      </wsdl:output>
                    </wsdl:operation>
                """.formatted(input)) + """
                  </wsdl:binding>
                """;
    }

    /** {@code block} once per operation: its name, its SOAP action's placeholder and its second HTTP parameter. */
    private static String perOperation(String block) {
        StringBuilder out = new StringBuilder();
        for (String op : OPERATIONS) {
            String secondPart = op.equals("WriteString") ? "<wsdl:part name=\"value\" type=\"s:string\" />"
                    : "<wsdl:part name=\"content\" type=\"s1:StringArray\" />";
            out.append(block.replace("$action", "{{write" + op.substring("Write".length()) + "Action}}")
                    .replace("$secondPart", secondPart).replace("$op", op));
        }
        return out.toString();
    }

    private static String port(String name, String addressElement) {
        return """
                    <wsdl:port name="%1$s" binding="tns:%1$s">
                      <%2$s location="{{address}}" />
                    </wsdl:port>
                """.formatted(name, addressElement);
    }

    /**
     * The document as ASMX writes it with {@code protocols} on (CRLF line ends), as its ServiceDescriptionReflector
     * builds it: only the enabled protocols' reflectors run (Soap, Soap12, HttpGet, HttpPost; HttpPostLocalhost and
     * Documentation add nothing). Soap12 shares Soap's portType and messages when Soap runs, else keeps its own
     * ({@code StoreSoap12}, {@code WriteStringSoap12In}); the HTTP reflectors add the {@code Status} element and
     * the {@code StringArray} schema. Sections that repeat per operation or protocol come from one block each.
     */
    static String template(Protocols protocols) {
        boolean soap11 = protocols.contains(Protocol.HTTP_SOAP);
        boolean soap12 = protocols.contains(Protocol.HTTP_SOAP12);
        boolean get = protocols.contains(Protocol.HTTP_GET);
        boolean post = protocols.contains(Protocol.HTTP_POST);
        boolean http = get || post;
        String soapPortType = soap11 ? "Soap" : "Soap12";
        StringBuilder wsdl = new StringBuilder(DEFINITIONS.replace("$s1", http ? "xmlns:s1=\"{{abstractTypes}}\" " : ""));
        if (soap11 || soap12) {
            wsdl.append(SOAP_ELEMENTS.replace("$statusType", STATUS_TYPE));
            if (http) {
                wsdl.append(STATUS_ELEMENT);
            }
        } else if (http) {
            wsdl.append(STATUS_ELEMENT).append(STATUS_TYPE);
        }
        wsdl.append("    </s:schema>\n");
        if (http) {
            wsdl.append(ABSTRACT_TYPES);
        }
        wsdl.append("  </wsdl:types>\n");
        if (soap11 || soap12) {
            wsdl.append(soapMessages(soapPortType));
        }
        if (get) {
            wsdl.append(httpMessages("HttpGet"));
        }
        if (post) {
            wsdl.append(httpMessages("HttpPost"));
        }
        if (soap11 || soap12) {
            wsdl.append(portType(soapPortType));
        }
        if (get) {
            wsdl.append(portType("HttpGet"));
        }
        if (post) {
            wsdl.append(portType("HttpPost"));
        }
        if (soap11) {
            wsdl.append(soapBinding("soap", "StoreSoap", "StoreSoap"));
        }
        if (soap12) {
            wsdl.append(soapBinding("soap12", "StoreSoap12", "Store" + soapPortType));
        }
        if (get) {
            wsdl.append(httpBinding("HttpGet", "GET", "<http:urlEncoded />"));
        }
        if (post) {
            wsdl.append(httpBinding("HttpPost", "POST", "<mime:content type=\"application/x-www-form-urlencoded\" />"));
        }
        wsdl.append("  <wsdl:service name=\"Store\">\n");
        if (soap11) {
            wsdl.append(port("StoreSoap", "soap:address"));
        }
        if (soap12) {
            wsdl.append(port("StoreSoap12", "soap12:address"));
        }
        if (get) {
            wsdl.append(port("StoreHttpGet", "http:address"));
        }
        if (post) {
            wsdl.append(port("StoreHttpPost", "http:address"));
        }
        wsdl.append("  </wsdl:service>\n</wsdl:definitions>");
        return wsdl.toString().replace("\n", "\r\n");
    }

    private final MetadataTemplate template;

    /** The WSDL for {@code namespace}, which must contain only characters XML allows, with {@code protocols} on. */
    WsdlDocument(String namespace, Protocols protocols) {
        this.template = MetadataTemplate.of(template(protocols)).bind(Map.of(
                "tns", MetadataEscaping.markup(namespace),
                "abstractTypes", MetadataEscaping.markup(abstractTypesNamespace(namespace)),
                "writeStringAction", MetadataEscaping.markup(Operation.WRITE_STRING.soapAction(namespace)),
                "writeBytesAction", MetadataEscaping.markup(Operation.WRITE_BYTES.soapAction(namespace))));
    }

    /** The WSDL whose ports have {@code address} (an absolute, percent-encoded URI) as location. */
    String render(String address) {
        return template.render(Map.of("address", MetadataEscaping.markup(address)));
    }

    /** The namespace of the {@code StringArray} schema: the service namespace + ({@code '/'} +) {@code AbstractTypes}. */
    static String abstractTypesNamespace(String namespace) {
        return namespace.endsWith("/") ? namespace + "AbstractTypes" : namespace + "/AbstractTypes";
    }
}
