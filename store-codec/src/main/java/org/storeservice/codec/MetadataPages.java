package org.storeservice.codec;

/**
 * Answers every GET on the bare endpoint path (no path info): the WSDL ({@code ?WSDL}, any case), the
 * disco document ({@code ?disco}), the help page, the per-operation pages ({@code ?op=WriteString}), and
 * the ASMX errors for {@code ?wsdl=x} / {@code ?schema=x}. Built once per codec; thread-safe.
 */
final class MetadataPages {
    private final String namespace;
    private final String endpointPath;

    MetadataPages(String namespace, String endpointPath) {
        this.namespace = namespace;
        this.endpointPath = endpointPath;
    }

    /** The response to {@code request}, a GET whose path is exactly the endpoint path. */
    CodecResponse respond(CodecRequest request) {
        throw new UnsupportedOperationException("MetadataPages for " + namespace + endpointPath + ": not implemented yet");
    }
}
