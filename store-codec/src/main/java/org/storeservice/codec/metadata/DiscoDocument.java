package org.storeservice.codec.metadata;

import java.util.Map;

/**
 * The discovery document served on {@code ?disco} (wire notes §7): a contract reference to the WSDL and
 * one {@code soap} entry per SOAP port (StoreSoap, StoreSoap12; the HTTP ports are not listed, as in
 * ASMX). Same writer settings as the WSDL: UTF-8 without BOM, two-space indentation, CRLF, no final
 * line end. Immutable.
 */
final class DiscoDocument {
    private static final String TEMPLATE = """
            <?xml version="1.0" encoding="utf-8"?>
            <discovery xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns="http://schemas.xmlsoap.org/disco/">
              <contractRef ref="{{address}}?wsdl" docRef="{{address}}" xmlns="http://schemas.xmlsoap.org/disco/scl/" />
              <soap address="{{address}}" xmlns:q1="{{tns}}" binding="q1:StoreSoap" xmlns="http://schemas.xmlsoap.org/disco/soap/" />
              <soap address="{{address}}" xmlns:q2="{{tns}}" binding="q2:StoreSoap12" xmlns="http://schemas.xmlsoap.org/disco/soap/" />
            </discovery>""".replace("\n", "\r\n");

    private final MetadataTemplate template;

    DiscoDocument(String namespace) {
        this.template = MetadataTemplate.of(TEMPLATE).bind(Map.of("tns", MetadataEscaping.markup(namespace)));
    }

    /** The document for the endpoint at {@code address} (an absolute, percent-encoded URI). */
    String render(String address) {
        return template.render(Map.of("address", MetadataEscaping.markup(address)));
    }
}
