package org.storeservice.codec;

/** The ASMX protocol that took a request, as {@link StoreCodec#describe} tells it. */
public enum Binding {
    /** SOAP 1.1: a POST to the endpoint with {@code text/xml} and a {@code SOAPAction}. */
    SOAP11("soap11"),
    /** SOAP 1.2: a POST to the endpoint with {@code application/soap+xml}. */
    SOAP12("soap12"),
    /** HTTP GET: {@code GET /API/Store.asmx/WriteString?key=...&value=...}. */
    HTTP_GET("httpget"),
    /** HTTP POST: a form posted to {@code /API/Store.asmx/WriteString}. */
    HTTP_POST("httppost"),
    /** The WSDL, the disco document and the help pages ({@code GET} on the endpoint path). */
    METADATA("metadata"),
    /** None: a path outside the endpoint, or a verb or path info no protocol takes. */
    NONE("none");

    private final String tag;

    Binding(String tag) {
        this.tag = tag;
    }

    /**
     * {@return its name in metrics and logs}: {@code soap11}, {@code soap12}, {@code httpget}, {@code httppost},
     * {@code metadata}, {@code none}.
     */
    public String tag() {
        return tag;
    }
}
