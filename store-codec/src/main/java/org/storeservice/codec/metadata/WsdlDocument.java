package org.storeservice.codec.metadata;

import java.util.List;
import java.util.Map;
import org.storeservice.codec.wire.Operation;

/**
 * The service description served on {@code ?WSDL}: the WSDL 1.1 document ASMX reflects from
 * {@code Store.WriteString(string, string)} and {@code Store.WriteBytes(string, byte[])} with SOAP 1.1,
 * SOAP 1.2, HTTP GET and HTTP POST enabled (wire notes §5, §7). Written as ASMX writes it: UTF-8 without
 * BOM, every element on its own line, two-space indentation, CRLF line ends, no final line end.
 *
 * <p>The namespace is bound once, in the constructor; {@link #render} only inserts the address. Immutable.
 */
final class WsdlDocument {
    private static final String HEAD = """
            <?xml version="1.0" encoding="utf-8"?>
            <wsdl:definitions xmlns:soap="http://schemas.xmlsoap.org/wsdl/soap/" xmlns:tm="http://microsoft.com/wsdl/mime/textMatching/" xmlns:soapenc="http://schemas.xmlsoap.org/soap/encoding/" xmlns:mime="http://schemas.xmlsoap.org/wsdl/mime/" xmlns:tns="{{tns}}" xmlns:s1="{{abstractTypes}}" xmlns:s="http://www.w3.org/2001/XMLSchema" xmlns:soap12="http://schemas.xmlsoap.org/wsdl/soap12/" xmlns:http="http://schemas.xmlsoap.org/wsdl/http/" targetNamespace="{{tns}}" xmlns:wsdl="http://schemas.xmlsoap.org/wsdl/">
              <wsdl:types>
                <s:schema elementFormDefault="qualified" targetNamespace="{{tns}}">
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
                  <s:simpleType name="Status">
                    <s:restriction base="s:string">
                      <s:enumeration value="Success" />
                      <s:enumeration value="Error" />
                    </s:restriction>
                  </s:simpleType>
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
                  <s:element name="Status" type="tns:Status" />
                </s:schema>
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
              </wsdl:types>
            """;

    /** The two operations, in the order ASMX lists them. */
    private static final List<String> OPERATIONS = List.of("WriteString", "WriteBytes");

    private static String soapMessages() {
        return perOperation("""
                  <wsdl:message name="$opSoapIn">
                    <wsdl:part name="parameters" element="tns:$op" />
                  </wsdl:message>
                  <wsdl:message name="$opSoapOut">
                    <wsdl:part name="parameters" element="tns:$opResponse" />
                  </wsdl:message>
                """);
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

    private static String soapBinding(String prefix, String name) {
        return """
                  <wsdl:binding name="%2$s" type="tns:StoreSoap">
                    <%1$s:binding transport="http://schemas.xmlsoap.org/soap/http" />
                """.formatted(prefix, name) + perOperation("""
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

    private static final String SERVICE = """
              <wsdl:service name="Store">
                <wsdl:port name="StoreSoap" binding="tns:StoreSoap">
                  <soap:address location="{{address}}" />
                </wsdl:port>
                <wsdl:port name="StoreSoap12" binding="tns:StoreSoap12">
                  <soap12:address location="{{address}}" />
                </wsdl:port>
                <wsdl:port name="StoreHttpGet" binding="tns:StoreHttpGet">
                  <http:address location="{{address}}" />
                </wsdl:port>
                <wsdl:port name="StoreHttpPost" binding="tns:StoreHttpPost">
                  <http:address location="{{address}}" />
                </wsdl:port>
              </wsdl:service>
            </wsdl:definitions>""";

    /**
     * The document as ASMX writes it (CRLF line ends). Sections that repeat per operation or per protocol are built
     * from one block each, with {@code $op} and the protocol's names filled in.
     */
    private static final String TEMPLATE = (HEAD + soapMessages() + httpMessages("HttpGet") + httpMessages("HttpPost")
            + portType("Soap") + portType("HttpGet") + portType("HttpPost")
            + soapBinding("soap", "StoreSoap") + soapBinding("soap12", "StoreSoap12")
            + httpBinding("HttpGet", "GET", "<http:urlEncoded />")
            + httpBinding("HttpPost", "POST", "<mime:content type=\"application/x-www-form-urlencoded\" />")
            + SERVICE).replace("\n", "\r\n");

    private final MetadataTemplate template;

    /** The WSDL for {@code namespace}, which must contain only characters XML allows. */
    WsdlDocument(String namespace) {
        this.template = MetadataTemplate.of(TEMPLATE).bind(Map.of(
                "tns", MetadataEscaping.markup(namespace),
                "abstractTypes", MetadataEscaping.markup(abstractTypesNamespace(namespace)),
                "writeStringAction", MetadataEscaping.markup(Operation.WRITE_STRING.soapAction(namespace)),
                "writeBytesAction", MetadataEscaping.markup(Operation.WRITE_BYTES.soapAction(namespace))));
    }

    /** The WSDL whose four ports have {@code address} (an absolute, percent-encoded URI) as location. */
    String render(String address) {
        return template.render(Map.of("address", MetadataEscaping.markup(address)));
    }

    /** The namespace of the {@code StringArray} schema: the service namespace + ({@code '/'} +) {@code AbstractTypes}. */
    static String abstractTypesNamespace(String namespace) {
        return namespace.endsWith("/") ? namespace + "AbstractTypes" : namespace + "/AbstractTypes";
    }
}
