package org.storeservice.codec.soap;

/** SOAP 1.1 or 1.2: the envelope namespace, the response media type and the fault code names. */
enum SoapVersion {
    SOAP_11("http://schemas.xmlsoap.org/soap/envelope/", "text/xml", "Client", "Server"),
    SOAP_12("http://www.w3.org/2003/05/soap-envelope", "application/soap+xml", "Sender", "Receiver");

    private final String envelopeNamespace;
    private final String mediaType;
    private final String clientCode;
    private final String serverCode;

    SoapVersion(String envelopeNamespace, String mediaType, String clientCode, String serverCode) {
        this.envelopeNamespace = envelopeNamespace;
        this.mediaType = mediaType;
        this.clientCode = clientCode;
        this.serverCode = serverCode;
    }

    String envelopeNamespace() {
        return envelopeNamespace;
    }

    /** The media type without parameters: {@code text/xml} or {@code application/soap+xml}. */
    String mediaType() {
        return mediaType;
    }

    /** The Content-Type of every response in this version. */
    String responseContentType() {
        return mediaType + "; charset=utf-8";
    }

    /** The local name of a fault code in this version (1.1 {@code Client} is 1.2 {@code Sender}, ...). */
    String codeName(FaultCode code) {
        return switch (code) {
            case CLIENT -> clientCode;
            case SERVER -> serverCode;
            case MUST_UNDERSTAND -> "MustUnderstand";
            case VERSION_MISMATCH -> "VersionMismatch";
        };
    }

    /** The version whose envelope namespace is {@code namespace}, or {@code null}. */
    static SoapVersion byEnvelopeNamespace(String namespace) {
        for (SoapVersion version : values()) {
            if (version.envelopeNamespace.equals(namespace)) {
                return version;
            }
        }
        return null;
    }
}
