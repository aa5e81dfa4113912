package org.storeservice.codec.metadata;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * A text with {@code {{name}}} placeholders, split once so that filling it is plain concatenation.
 * Placeholders are found in the template text only, never in substituted values. Immutable.
 */
final class MetadataTemplate {
    private final List<String> literals; // one more than names
    private final List<String> names;

    private MetadataTemplate(List<String> literals, List<String> names) {
        this.literals = List.copyOf(literals);
        this.names = List.copyOf(names);
    }

    static MetadataTemplate of(String text) {
        List<String> literals = new ArrayList<>();
        List<String> names = new ArrayList<>();
        int from = 0;
        for (int open = text.indexOf("{{"); open >= 0; open = text.indexOf("{{", from)) {
            int close = text.indexOf("}}", open + 2);
            if (close < 0) {
                break;
            }
            literals.add(text.substring(from, open));
            names.add(text.substring(open + 2, close));
            from = close + 2;
        }
        literals.add(text.substring(from));
        return new MetadataTemplate(literals, names);
    }

    /** This template with the placeholders named in {@code values} replaced; the others stay. */
    MetadataTemplate bind(Map<String, String> values) {
        List<String> newLiterals = new ArrayList<>();
        List<String> newNames = new ArrayList<>();
        StringBuilder pending = new StringBuilder(literals.get(0));
        for (int i = 0; i < names.size(); i++) {
            String value = values.get(names.get(i));
            if (value == null) {
                newLiterals.add(pending.toString());
                newNames.add(names.get(i));
                pending.setLength(0);
            } else {
                pending.append(value);
            }
            pending.append(literals.get(i + 1));
        }
        newLiterals.add(pending.toString());
        return new MetadataTemplate(newLiterals, newNames);
    }

    /** The text with every placeholder replaced; throws if {@code values} lacks one. */
    String render(Map<String, String> values) {
        StringBuilder out = new StringBuilder(literals.stream().mapToInt(String::length).sum() + 256);
        out.append(literals.get(0));
        for (int i = 0; i < names.size(); i++) {
            String value = values.get(names.get(i));
            if (value == null) {
                throw new IllegalStateException("no value for template placeholder " + names.get(i));
            }
            out.append(value).append(literals.get(i + 1));
        }
        return out.toString();
    }
}
