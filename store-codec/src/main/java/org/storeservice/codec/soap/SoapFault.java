package org.storeservice.codec.soap;

import org.storeservice.codec.wire.ErrorPages;
import org.storeservice.codec.wire.RequestTooLargeException;

/**
 * A SOAP fault to answer instead of a result: code, reason text (the "remote" form: messages joined by
 * {@code " ---> "}, never a stack trace), HTTP status and the version whose shape to answer in.
 * Thrown through the decoder; {@link SoapEncoder#fault} writes it.
 */
final class SoapFault extends Exception {
    private static final long serialVersionUID = 1L;

    static final String UNABLE_TO_READ = "Server was unable to read request. ---> ";

    private final SoapVersion version;
    private final FaultCode code;
    private final int httpStatus;

    SoapFault(SoapVersion version, FaultCode code, int httpStatus, String reason) {
        super(reason, null, false, false);
        this.version = version;
        this.code = code;
        this.httpStatus = httpStatus;
    }

    /** The request's body could not be read as a SOAP message (ASMX: an XmlException, 400). */
    static SoapFault unreadable(SoapVersion version, String message) {
        return new SoapFault(version, FaultCode.CLIENT, 400, UNABLE_TO_READ + message);
    }

    /** ASMX's "Maximum request length exceeded." fault, raised from its extension chain. */
    static SoapFault tooLarge(SoapVersion version) {
        return new SoapFault(version, FaultCode.SERVER, 500,
                "There was an exception running the extensions specified in the config file. ---> "
                        + RequestTooLargeException.MESSAGE);
    }

    /** A Content-Type that is not SOAP's: 415. */
    static SoapFault unsupportedMediaType(SoapVersion version, String contentType) {
        return new SoapFault(version, FaultCode.CLIENT, 415, "Server found request content type to be '"
                + (contentType == null ? "" : contentType) + "', but expected '" + version.mediaType() + "'.");
    }

    /** The store failed with {@code message}: a Server fault, as ASMX reports an exception from the method. */
    static SoapFault storeFailed(SoapVersion version, String message) {
        return new SoapFault(version, FaultCode.SERVER, 500, ErrorPages.UNABLE_TO_PROCESS + message);
    }

    /** The version whose fault shape to answer in. */
    SoapVersion version() {
        return version;
    }

    FaultCode code() {
        return code;
    }

    int httpStatus() {
        return httpStatus;
    }

    /** The fault string / reason text, not yet escaped. */
    String reason() {
        return getMessage();
    }
}
