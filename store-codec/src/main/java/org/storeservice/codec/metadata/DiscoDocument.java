package org.storeservice.codec.metadata;

import java.util.Map;
import org.storeservice.codec.Protocol;
import org.storeservice.codec.Protocols;

/**
 * The discovery document served on {@code ?disco} (wire notes §7): a contract reference to the WSDL and
 * one {@code soap} entry per enabled SOAP port (StoreSoap, StoreSoap12; the HTTP ports are not listed, as in
 * ASMX). Same writer settings as the WSDL: UTF-8 without BOM, two-space indentation, CRLF, no final
 * line end. Immutable.
 */
final class DiscoDocument {
    private static final String HEAD = """
            <?xml version="1.0" encoding="utf-8"?>
            <discovery xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://schemas.xmlsoap.org/disco/">
              <contractRef ref="{{address}}?wsdl" docRef="{{address}}" xmlns="http://schemas.xmlsoap.org/disco/scl/" />
            """;
    private static final String SOAP = """
              <soap address="{{address}}" xmlns:q%1$d="{{tns}}" binding="q%1$d:%2$s" xmlns="http://schemas.xmlsoap.org/disco/soap/" />
            """;

    private final MetadataTemplate template;

    /** The document of a service in {@code namespace} with {@code protocols} on: one entry per enabled SOAP port. */
    DiscoDocument(String namespace, Protocols protocols) {
        StringBuilder text = new StringBuilder(HEAD);
        int prefix = 0;
        if (protocols.contains(Protocol.HTTP_SOAP)) {
            text.append(SOAP.formatted(++prefix, "StoreSoap"));
        }
        if (protocols.contains(Protocol.HTTP_SOAP12)) {
            text.append(SOAP.formatted(++prefix, "StoreSoap12"));
        }
        text.append("</discovery>");
        this.template = MetadataTemplate.of(text.toString().replace("\n", "\r\n"))
                .bind(Map.of("tns", MetadataEscaping.markup(namespace)));
    }

    /** The document for the endpoint at {@code address} (an absolute, percent-encoded URI). */
    String render(String address) {
        return template.render(Map.of("address", MetadataEscaping.markup(address)));
    }
}
