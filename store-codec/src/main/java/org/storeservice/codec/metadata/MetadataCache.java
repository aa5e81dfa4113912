package org.storeservice.codec.metadata;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Rendered bodies of one metadata page, by origin ({@code scheme://host[:port]}), for at most
 * {@code capacity} origins. Like ASMX ({@code ServerProtocol.IsCacheUnderPressure}), the first origins seen
 * are kept and any further origin is rendered per request and not stored: the Host header is the
 * client's to choose, so the cache must not grow with it. Thread-safe.
 */
final class MetadataCache {
    private final int capacity;
    private final Map<String, byte[]> bodies = new ConcurrentHashMap<>();

    MetadataCache(int capacity) {
        this.capacity = capacity;
    }

    /** The body for {@code origin}, rendered by {@code render} unless cached. The array must not be changed. */
    byte[] get(String origin, Function<String, byte[]> render) {
        byte[] body = bodies.get(origin);
        if (body != null) {
            return body;
        }
        body = render.apply(origin);
        if (bodies.size() < capacity) {
            synchronized (bodies) { // re-check under the lock so that racing inserts cannot pass the bound
                if (bodies.size() < capacity) {
                    byte[] raced = bodies.putIfAbsent(origin, body);
                    return raced == null ? body : raced;
                }
            }
        }
        return body;
    }

    /** How many bodies are stored; never more than the capacity. */
    int size() {
        return bodies.size();
    }
}
