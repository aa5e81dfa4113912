package org.storeservice.codec.metadata;

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
    private static final String TEMPLATE = """
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
              <wsdl:message name="WriteStringSoapIn">
                <wsdl:part name="parameters" element="tns:WriteString" />
              </wsdl:message>
              <wsdl:message name="WriteStringSoapOut">
                <wsdl:part name="parameters" element="tns:WriteStringResponse" />
              </wsdl:message>
              <wsdl:message name="WriteBytesSoapIn">
                <wsdl:part name="parameters" element="tns:WriteBytes" />
              </wsdl:message>
              <wsdl:message name="WriteBytesSoapOut">
                <wsdl:part name="parameters" element="tns:WriteBytesResponse" />
              </wsdl:message>
              <wsdl:message name="WriteStringHttpGetIn">
                <wsdl:part name="key" type="s:string" />
                <wsdl:part name="value" type="s:string" />
              </wsdl:message>
              <wsdl:message name="WriteStringHttpGetOut">
                <wsdl:part name="Body" element="tns:Status" />
              </wsdl:message>
              <wsdl:message name="WriteBytesHttpGetIn">
                <wsdl:part name="key" type="s:string" />
                <wsdl:part name="content" type="s1:StringArray" />
              </wsdl:message>
              <wsdl:message name="WriteBytesHttpGetOut">
                <wsdl:part name="Body" element="tns:Status" />
              </wsdl:message>
              <wsdl:message name="WriteStringHttpPostIn">
                <wsdl:part name="key" type="s:string" />
                <wsdl:part name="value" type="s:string" />
              </wsdl:message>
              <wsdl:message name="WriteStringHttpPostOut">
                <wsdl:part name="Body" element="tns:Status" />
              </wsdl:message>
              <wsdl:message name="WriteBytesHttpPostIn">
                <wsdl:part name="key" type="s:string" />
                <wsdl:part name="content" type="s1:StringArray" />
              </wsdl:message>
              <wsdl:message name="WriteBytesHttpPostOut">
                <wsdl:part name="Body" element="tns:Status" />
              </wsdl:message>
              <wsdl:portType name="StoreSoap">
                <wsdl:operation name="WriteString">
                  <wsdl:input message="tns:WriteStringSoapIn" />
                  <wsdl:output message="tns:WriteStringSoapOut" />
                </wsdl:operation>
                <wsdl:operation name="WriteBytes">
                  <wsdl:input message="tns:WriteBytesSoapIn" />
                  <wsdl:output message="tns:WriteBytesSoapOut" />
                </wsdl:operation>
              </wsdl:portType>
              <wsdl:portType name="StoreHttpGet">
                <wsdl:operation name="WriteString">
                  <wsdl:input message="tns:WriteStringHttpGetIn" />
                  <wsdl:output message="tns:WriteStringHttpGetOut" />
                </wsdl:operation>
                <wsdl:operation name="WriteBytes">
                  <wsdl:input message="tns:WriteBytesHttpGetIn" />
                  <wsdl:output message="tns:WriteBytesHttpGetOut" />
                </wsdl:operation>
              </wsdl:portType>
              <wsdl:portType name="StoreHttpPost">
                <wsdl:operation name="WriteString">
                  <wsdl:input message="tns:WriteStringHttpPostIn" />
                  <wsdl:output message="tns:WriteStringHttpPostOut" />
                </wsdl:operation>
                <wsdl:operation name="WriteBytes">
                  <wsdl:input message="tns:WriteBytesHttpPostIn" />
                  <wsdl:output message="tns:WriteBytesHttpPostOut" />
                </wsdl:operation>
              </wsdl:portType>
              <wsdl:binding name="StoreSoap" type="tns:StoreSoap">
                <soap:binding transport="http://schemas.xmlsoap.org/soap/http" />
                <wsdl:operation name="WriteString">
                  <soap:operation soapAction="{{writeStringAction}}" style="document" />
                  <wsdl:input>
                    <soap:body use="literal" />
                  </wsdl:input>
                  <wsdl:output>
                    <soap:body use="literal" />
                  </wsdl:output>
                </wsdl:operation>
                <wsdl:operation name="WriteBytes">
                  <soap:operation soapAction="{{writeBytesAction}}" style="document" />
                  <wsdl:input>
                    <soap:body use="literal" />
                  </wsdl:input>
                  <wsdl:output>
                    <soap:body use="literal" />
                  </wsdl:output>
                </wsdl:operation>
              </wsdl:binding>
              <wsdl:binding name="StoreSoap12" type="tns:StoreSoap">
                <soap12:binding transport="http://schemas.xmlsoap.org/soap/http" />
                <wsdl:operation name="WriteString">
                  <soap12:operation soapAction="{{writeStringAction}}" style="document" />
                  <wsdl:input>
                    <soap12:body use="literal" />
                  </wsdl:input>
                  <wsdl:output>
                    <soap12:body use="literal" />
                  </wsdl:output>
                </wsdl:operation>
                <wsdl:operation name="WriteBytes">
                  <soap12:operation soapAction="{{writeBytesAction}}" style="document" />
                  <wsdl:input>
                    <soap12:body use="literal" />
                  </wsdl:input>
                  <wsdl:output>
                    <soap12:body use="literal" />
                  </wsdl:output>
                </wsdl:operation>
              </wsdl:binding>
              <wsdl:binding name="StoreHttpGet" type="tns:StoreHttpGet">
                <http:binding verb="GET" />
                <wsdl:operation name="WriteString">
                  <http:operation location="/WriteString" />
                  <wsdl:input>
                    <http:urlEncoded />
                  </wsdl:input>
                  <wsdl:output>
                    <mime:mimeXml part="Body" />
                  </wsdl:output>
                </wsdl:operation>
                <wsdl:operation name="WriteBytes">
                  <http:operation location="/WriteBytes" />
                  <wsdl:input>
                    <http:urlEncoded />
                  </wsdl:input>
                  <wsdl:output>
                    <mime:mimeXml part="Body" />
                  </wsdl:output>
                </wsdl:operation>
              </wsdl:binding>
              <wsdl:binding name="StoreHttpPost" type="tns:StoreHttpPost">
                <http:binding verb="POST" />
                <wsdl:operation name="WriteString">
                  <http:operation location="/WriteString" />
                  <wsdl:input>
                    <mime:content type="application/x-www-form-urlencoded" />
                  </wsdl:input>
                  <wsdl:output>
                    <mime:mimeXml part="Body" />
                  </wsdl:output>
                </wsdl:operation>
                <wsdl:operation name="WriteBytes">
                  <http:operation location="/WriteBytes" />
                  <wsdl:input>
                    <mime:content type="application/x-www-form-urlencoded" />
                  </wsdl:input>
                  <wsdl:output>
                    <mime:mimeXml part="Body" />
                  </wsdl:output>
                </wsdl:operation>
              </wsdl:binding>
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
            </wsdl:definitions>""".replace("\n", "\r\n");

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
