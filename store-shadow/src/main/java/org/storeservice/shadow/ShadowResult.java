package org.storeservice.shadow;

/** What became of one request at the endpoint, as a {@link ShadowObserver} is told. */
public enum ShadowResult {
    /** Mirrored, and the shadow answered as the primary did. */
    MATCHED("matched"),
    /** Mirrored, and the shadow's answer differs (written to the differences file). */
    DIFFERING("differing"),
    /**
     * Mirrored, and the shadow's answer differs only in ways the accept rules say are understood (written to the
     * differences file, marked with the rules' reasons).
     */
    ACCEPTED("accepted"),
    /** Mirrored, and the shadow gave no answer (refused, reset, timed out); a write's key is listed. */
    SHADOW_ERROR("shadow_error"),
    /** Not mirrored: the queue for the shadow was full, or the proxy stopped first; a write's key is listed. */
    DROPPED("dropped"),
    /** Not mirrored: its body is larger than the proxy copies; it went to the primary only. */
    NOT_MIRRORED("not_mirrored"),
    /** The primary gave no answer (the client got 502 or 504), so nothing was mirrored; a write's key is listed. */
    PRIMARY_FAILED("primary_failed");

    private final String tag;

    ShadowResult(String tag) {
        this.tag = tag;
    }

    /** Its name in metrics: {@code matched}, {@code differing}, {@code accepted}, {@code shadow_error}, ... */
    public String tag() {
        return tag;
    }
}
