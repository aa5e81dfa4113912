package org.storeservice.codec;

/**
 * One of ASMX's web service protocols, as web.config's {@code <webServices><protocols>} names them
 * ({@code System.Web.Services.Configuration.WebServiceProtocols}). Which are on is a {@link Protocols} value.
 */
public enum Protocol {
    /** SOAP 1.1 POSTs to the endpoint; the {@code StoreSoap} binding. */
    HTTP_SOAP("HttpSoap"),
    /** SOAP 1.2 POSTs to the endpoint; the {@code StoreSoap12} binding. */
    HTTP_SOAP12("HttpSoap12"),
    /** {@code GET /Store.asmx/WriteString?key=..}; the {@code StoreHttpGet} binding. */
    HTTP_GET("HttpGet"),
    /** Form POSTs to {@code /Store.asmx/WriteString} from anywhere; the {@code StoreHttpPost} binding. */
    HTTP_POST("HttpPost"),
    /**
     * Form POSTs from the local machine only (the client's address is a loopback address or the server's
     * own): what lets the help page's test form work when {@link #HTTP_POST} is off. Not in the WSDL.
     */
    HTTP_POST_LOCALHOST("HttpPostLocalhost"),
    /** The help pages, the WSDL ({@code ?wsdl}) and the disco document ({@code ?disco}). */
    DOCUMENTATION("Documentation");

    private final String asmxName;

    Protocol(String asmxName) {
        this.asmxName = asmxName;
    }

    /** {@return the name web.config uses, for example {@code HttpSoap12}} */
    public String asmxName() {
        return asmxName;
    }

    /**
     * The protocol ASMX calls {@code name}, compared case-insensitively; the Java constant's name
     * ({@code HTTP_SOAP12}) is accepted too.
     *
     * @param name ASMX's name of the protocol, or the constant's
     * @return the protocol
     * @throws IllegalArgumentException naming the valid names, if {@code name} is none of them
     */
    public static Protocol byName(String name) {
        String wanted = name.strip();
        for (Protocol protocol : values()) {
            if (protocol.asmxName.equalsIgnoreCase(wanted) || protocol.name().equalsIgnoreCase(wanted)) {
                return protocol;
            }
        }
        throw new IllegalArgumentException("unknown protocol '" + name + "'; expected one of "
                + Protocols.all() + " (ASMX's names, comma-separated)");
    }

    @Override
    public String toString() {
        return asmxName;
    }
}
