package org.storeservice.codec;

/** How a request ended, as {@link StoreCodec#describe} tells it. */
public enum Outcome {
    /** A write answered {@code Success}, or a metadata page served. */
    SUCCESS("Success"),
    /** A write answered {@code Error}: the store refused or failed. */
    ERROR("Error"),
    /** A SOAP fault. */
    FAULT("fault"),
    /** Another answer with a 4xx status. */
    CLIENT_ERROR("4xx"),
    /** Another answer with a 5xx status (the HTTP bindings' errors among them, which ASMX sends as 500). */
    SERVER_ERROR("5xx");

    private final String tag;

    Outcome(String tag) {
        this.tag = tag;
    }

    /**
     * {@return its name in metrics and logs}: {@code Success}, {@code Error}, {@code fault}, {@code 4xx},
     * {@code 5xx}.
     */
    public String tag() {
        return tag;
    }
}
