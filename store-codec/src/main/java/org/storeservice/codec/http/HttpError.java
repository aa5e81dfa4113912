package org.storeservice.codec.http;

/**
 * An error of the HTTP GET/POST bindings: the text ASMX's remote error form gives (exception messages
 * joined by {@code " ---> "}), not yet HTML-encoded; {@link HttpEncoder#error} writes it as a 500.
 */
final class HttpError extends Exception {
    private static final long serialVersionUID = 1L;

    public HttpError(String text) {
        super(text, null, false, false);
    }

    static HttpError missingParameter(String name) {
        return new HttpError("Missing parameter: " + name + '.');
    }

    /** The NullReferenceException ASMX throws for an array parameter that is absent altogether. */
    static HttpError nullReference() {
        return new HttpError("Object reference not set to an instance of an object.");
    }

    /** ASP.NET's answer to more distinct parameter names than {@code MaxHttpCollectionKeys}. */
    static HttpError tooManyParameters() {
        return new HttpError("Operation is not valid due to the current state of the object.");
    }

    /** The text, not yet HTML-encoded. */
    public String text() {
        return getMessage();
    }
}
