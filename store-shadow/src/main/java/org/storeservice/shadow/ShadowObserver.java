package org.storeservice.shadow;

import org.storeservice.codec.Binding;

/**
 * Told what became of each request at the endpoint (a metrics registry, say). Called on the proxy's threads, which
 * must not wait: an observer is quick, thread-safe and never blocks. What it throws is logged and otherwise ignored.
 */
@FunctionalInterface
public interface ShadowObserver {
    /**
     * @param binding the request's binding
     * @param operation {@code WriteString}, {@code WriteBytes}, {@code wsdl}, {@code disco}, {@code help} or
     *     {@code none}: always from that set, never the client's text
     */
    void completed(Binding binding, String operation, ShadowResult result);
}
