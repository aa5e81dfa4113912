package org.storeservice.shadow;

import org.storeservice.codec.Binding;

/**
 * What a request at the endpoint is, as {@link RequestClassifier} read it.
 *
 * @param binding its binding
 * @param operation {@code WriteString}, {@code WriteBytes}, {@code wsdl}, {@code disco}, {@code help} or {@code none}
 * @param key the key it writes (possibly empty), or {@code null} if it writes nothing
 */
record Classification(Binding binding, String operation, String key) {
    /** A request outside the endpoint, or one the proxy did not read: neither mirrored nor ordered. */
    static final Classification UNREAD = new Classification(Binding.NONE, "none", null);

    boolean writes() {
        return key != null;
    }
}
