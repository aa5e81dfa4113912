package org.storeservice.codec.metadata;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.storeservice.codec.wire.UrlDecoding;

/**
 * A query string read the way ASP.NET's {@code Request.QueryString} reads it: split on {@code '&'}, a part
 * without {@code '='} is a value of the {@code null} key ({@code ?wsdl}), names are case-insensitive,
 * names and values are URL-decoded leniently ({@code '+'} is a space, a bad escape stays as it is), and a
 * repeated name yields its values joined by commas. Immutable.
 */
final class MetadataQuery {
    private final Map<String, List<String>> named = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final List<String> bare = new ArrayList<>();

    private MetadataQuery() {
    }

    /** Parses {@code rawQuery}, the percent-encoded query without {@code '?'}. */
    static MetadataQuery parse(String rawQuery) {
        MetadataQuery query = new MetadataQuery();
        int length = rawQuery.length();
        int i = 0;
        while (i < length) {
            int start = i;
            int equals = -1;
            while (i < length && rawQuery.charAt(i) != '&') {
                if (rawQuery.charAt(i) == '=' && equals < 0) {
                    equals = i;
                }
                i++;
            }
            if (equals >= 0) {
                query.add(urlDecode(rawQuery.substring(start, equals)), urlDecode(rawQuery.substring(equals + 1, i)));
            } else {
                query.add(null, urlDecode(rawQuery.substring(start, i)));
            }
            if (i == length - 1 && rawQuery.charAt(i) == '&') {
                query.add(null, ""); // a trailing '&' adds an empty bare value, as HttpValueCollection does
            }
            i++;
        }
        return query;
    }

    /** The value(s) of {@code name} ({@code null} for the bare values) joined by commas; {@code null} if absent. */
    String get(String name) {
        List<String> values = name == null ? bare : named.get(name);
        return values == null || values.isEmpty() ? null : String.join(",", values);
    }

    /** {@code HttpUtility.UrlDecode(s, UTF8)}: never fails; malformed escapes are kept literally. */
    private static String urlDecode(String text) {
        return UrlDecoding.decode(text, StandardCharsets.UTF_8);
    }

    private void add(String name, String value) {
        if (name == null) {
            bare.add(value);
        } else {
            named.computeIfAbsent(name, n -> new ArrayList<>()).add(value);
        }
    }
}
