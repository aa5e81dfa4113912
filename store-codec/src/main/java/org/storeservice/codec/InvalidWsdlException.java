package org.storeservice.codec;

/**
 * An operator's WSDL ({@link StoreCodec.Builder#wsdl}) that does not describe this service: its message starts
 * {@code "WSDL: "}, {@link #reason()} is the rest, so a host can say which option was wrong without reading the text.
 */
public final class InvalidWsdlException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final String reason;

    /**
     * For the codec's WSDL checks.
     *
     * @param reason what is wrong with the document
     */
    public InvalidWsdlException(String reason) {
        super("WSDL: " + reason);
        this.reason = reason;
    }

    /** {@return what is wrong with the document} */
    public String reason() {
        return reason;
    }
}
