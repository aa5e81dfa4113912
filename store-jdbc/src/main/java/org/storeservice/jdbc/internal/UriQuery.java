package org.storeservice.jdbc.internal;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Splits a storage URI into the part before {@code ?} and its {@code name=value} parameters, in order. */
public final class UriQuery {
    private final String base;
    private final Map<String, String> decoded = new LinkedHashMap<>();
    private final Map<String, String> raw = new LinkedHashMap<>();

    private UriQuery(String uri) {
        int question = uri.indexOf('?');
        base = question < 0 ? uri : uri.substring(0, question);
        if (question < 0) {
            return;
        }
        for (String pair : uri.substring(question + 1).split("&")) {
            if (pair.isEmpty()) {
                continue;
            }
            int equals = pair.indexOf('=');
            String name = equals < 0 ? pair : pair.substring(0, equals);
            String value = equals < 0 ? "" : pair.substring(equals + 1);
            if (raw.put(name, pair) != null) {
                throw new IllegalArgumentException("Parameter '" + name + "' given twice in '" + uri + "'");
            }
            decoded.put(name, URLDecoder.decode(value, StandardCharsets.UTF_8));
        }
    }

    public static UriQuery parse(String uri) {
        return new UriQuery(uri);
    }

    public String base() {
        return base;
    }

    /** The decoded value of {@code name}, or {@code null}. */
    public String get(String name) {
        return decoded.get(name);
    }

    /** The parameter names, in the order given. */
    public List<String> names() {
        return new ArrayList<>(decoded.keySet());
    }

    /** {@code base} plus the parameters other than {@code omitted}, exactly as given. */
    public String rebuiltWithout(List<String> omitted) {
        List<String> kept = new ArrayList<>();
        raw.forEach((name, pair) -> {
            if (!omitted.contains(name)) {
                kept.add(pair);
            }
        });
        return kept.isEmpty() ? base : base + '?' + String.join("&", kept);
    }

    public static int intValue(String name, String value, int min) {
        return (int) integer(name, value, min, Integer.MAX_VALUE);
    }

    public static long longValue(String name, String value, long min) {
        return integer(name, value, min, Long.MAX_VALUE);
    }

    private static long integer(String name, String value, long min, long max) {
        try {
            long parsed = Long.parseLong(value);
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("Parameter '" + name + "' must be an integer from " + min + " to " + max
                + ": '" + value + "'");
    }
}
