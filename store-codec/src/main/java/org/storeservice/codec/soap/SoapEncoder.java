package org.storeservice.codec.soap;

import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Set;
import java.util.Map;
import org.storeservice.api.Status;
import org.storeservice.codec.CodecResponse;
import org.storeservice.codec.wire.ErrorPages;
import org.storeservice.codec.wire.Operation;
import org.storeservice.codec.wire.TextEscaping;

/**
 * Writes SOAP responses of one version byte for byte as ASMX does (wire notes §1–4): UTF-8 without BOM,
 * no indentation, the {@code soap} prefix for both versions, xmlns order soap/xsi/xsd. The eight possible
 * success responses (2 operations x 2 statuses x 2 versions) are built once per codec. Thread-safe.
 */
final class SoapEncoder {
    private static final String XSI_XSD = " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
            + " xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"";
    /**
     * SoapServerProtocol.CreateUpgradeEnvelope appends {@code qname}, then an explicit {@code xmlns:prefix} for
     * the envelope it names (wire notes §11), even where the prefix is already in scope; CreateUpgradeHeader
     * lists only the versions whose protocol is on.
     */
    private static String upgradeHeader(Set<SoapVersion> enabled) {
        StringBuilder header = new StringBuilder("<soap:Header><soap12:Upgrade xmlns:soap12=\"")
                .append(SoapVersion.SOAP_12.envelopeNamespace()).append("\">");
        if (enabled.contains(SoapVersion.SOAP_11)) {
            header.append("<soap12:SupportedEnvelope qname=\"soap:Envelope\" xmlns:soap=\"")
                    .append(SoapVersion.SOAP_11.envelopeNamespace()).append("\" />");
        }
        if (enabled.contains(SoapVersion.SOAP_12)) {
            header.append("<soap12:SupportedEnvelope qname=\"soap12:Envelope\" xmlns:soap12=\"")
                    .append(SoapVersion.SOAP_12.envelopeNamespace()).append("\" />");
        }
        return header.append("</soap12:Upgrade></soap:Header>").toString();
    }

    private final SoapVersion version;
    private final String envelopeStart;
    private final String upgradeHeader;
    private final Map<Operation, Map<Status, CodecResponse>> successes = new EnumMap<>(Operation.class);

    SoapEncoder(SoapVersion version, String namespace) {
        this(version, namespace, EnumSet.allOf(SoapVersion.class));
    }

    /** @param enabled the SOAP versions whose protocol is on, named in a VersionMismatch fault's Upgrade header */
    SoapEncoder(SoapVersion version, String namespace, Set<SoapVersion> enabled) {
        this.version = version;
        this.upgradeHeader = upgradeHeader(enabled);
        this.envelopeStart = "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\""
                + version.envelopeNamespace() + '"' + XSI_XSD + '>';
        String namespaceAttribute = TextEscaping.xmlAttribute(namespace);
        for (Operation operation : Operation.values()) {
            Map<Status, CodecResponse> byStatus = new EnumMap<>(Status.class);
            for (Status status : Status.values()) {
                String name = operation.wireName();
                String body = envelopeStart + "<soap:Body><" + name + "Response xmlns=\"" + namespaceAttribute
                        + "\"><" + name + "Result>" + status.wireName() + "</" + name + "Result></" + name
                        + "Response></soap:Body></soap:Envelope>";
                byStatus.put(status, response(200, ErrorPages.CACHE_PREPARED, body).operation(name).writeResult(status).build());
            }
            successes.put(operation, byStatus);
        }
    }

    /** The response carrying {@code status} as the result of {@code operation}. */
    CodecResponse success(Operation operation, Status status) {
        return successes.get(operation).get(status);
    }

    /** The fault response for {@code fault}, which must be of this encoder's version. */
    CodecResponse fault(SoapFault fault) {
        StringBuilder body = new StringBuilder(512).append(envelopeStart);
        boolean versionMismatch = fault.code() == FaultCode.VERSION_MISMATCH;
        if (versionMismatch) {
            body.append(upgradeHeader);
        }
        String code = "soap:" + version.codeName(fault.code());
        String reason = TextEscaping.xmlText(fault.reason());
        // ASMX omits the detail only for header faults (SoapHeaderException): MustUnderstand
        boolean detail = fault.code() != FaultCode.MUST_UNDERSTAND;
        body.append("<soap:Body><soap:Fault>");
        if (version == SoapVersion.SOAP_11) {
            body.append("<faultcode>").append(code).append("</faultcode><faultstring>").append(reason)
                    .append("</faultstring>").append(detail ? "<detail />" : "");
        } else {
            body.append("<soap:Code><soap:Value>").append(code).append("</soap:Value></soap:Code><soap:Reason>")
                    .append("<soap:Text xml:lang=\"en\">").append(reason).append("</soap:Text></soap:Reason>")
                    .append(detail ? "<soap:Detail />" : "");
        }
        body.append("</soap:Fault></soap:Body></soap:Envelope>");
        // ASMX checks mustUnderstand in WriteReturns, after WebServiceHandler.PrepareContext set max-age 0
        String cacheControl = fault.code() == FaultCode.MUST_UNDERSTAND ? ErrorPages.CACHE_PREPARED : ErrorPages.CACHE_PRIVATE;
        return response(fault.httpStatus(), cacheControl, body.toString()).build();
    }

    private CodecResponse.Builder response(int status, String cacheControl, String body) {
        return CodecResponse.builder(status)
                .header("Cache-Control", cacheControl)
                .header("Content-Type", version.responseContentType())
                .body(body.getBytes(StandardCharsets.UTF_8));
    }
}
