package org.storeservice.codec.wire;

/** The service's two web methods, with their wire names as ASMX's MessageName. */
public enum Operation {
    WRITE_STRING("WriteString"),
    WRITE_BYTES("WriteBytes");

    private final String wireName;

    Operation(String wireName) {
        this.wireName = wireName;
    }

    /** {@code WriteString} or {@code WriteBytes}: the method name, the SOAP wrapper and the HTTP path segment. */
    public String wireName() {
        return wireName;
    }

    /** The operation named exactly {@code name}, or {@code null}. */
    public static Operation byWireName(String name) {
        for (Operation operation : values()) {
            if (operation.wireName.equals(name)) {
                return operation;
            }
        }
        return null;
    }

    /**
     * ASMX's default SOAP action ({@code SoapReflector.GetDefaultAction}): the namespace, a {@code '/'} unless
     * it already ends with one, the name. The one rule for routing, the WSDL and the help pages.
     */
    public String soapAction(String namespace) {
        return namespace.endsWith("/") ? namespace + wireName : namespace + '/' + wireName;
    }
}
