import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Adds to the server's CycloneDX SBOM the code that its libraries carry inside their own jars (shaded or copied), which
 * the CycloneDX plugin cannot see: each row of NOTICE's "embedded code" table becomes a component nested in the
 * component of the library that carries it ({@code components[].components}, as CycloneDX advises for embedded code),
 * with its licence, its Maven coordinates where it has them and, as pedigree notes, where it is in the jar. Fails when
 * a carrying library is not in the SBOM. NoticeIT holds that table to what the jar holds.
 *
 * <p>Run by the release build (store-examples' pom) as a single-file program, on the module's class path (for
 * jackson-core): {@code java -cp CLASSPATH EmbeddedCodeSbom.java NOTICE SBOM}. The SBOM is rewritten in place.
 */
public final class EmbeddedCodeSbom {
    /** A row of NOTICE's second table: code, version, licence, inside, packages. */
    private static final Pattern ROW = Pattern.compile(
            "(?m)^\\| ([^|:\\s]+(?::[^|\\s]+)?) \\| ([^|\\s]+) \\| ([^|]+?) \\| ([\\w.-]+:[\\w.-]+) \\| ([^|]+?) \\|$");

    private record JsonNumber(String text) {
    }

    public static void main(String[] args) throws IOException {
        Path notice = Path.of(args[0]);
        File sbom = new File(args[1]);
        Map<String, Object> bom = asObject(read(sbom));
        Map<String, List<Object>> nestedBy = new LinkedHashMap<>();
        Matcher row = ROW.matcher(Files.readString(notice, StandardCharsets.UTF_8));
        while (row.find()) {
            nestedBy.computeIfAbsent(row.group(4), inside -> new ArrayList<>())
                    .add(component(row.group(1), row.group(2), row.group(3), row.group(4), row.group(5)));
        }
        if (nestedBy.isEmpty()) {
            throw new IllegalStateException(notice + " has no table of embedded code");
        }
        for (Map.Entry<String, List<Object>> embedded : nestedBy.entrySet()) {
            Map<String, Object> carrier = null;
            for (Object candidate : asList(bom.get("components"))) {
                Map<String, Object> component = asObject(candidate);
                if (embedded.getKey().equals(component.get("group") + ":" + component.get("name"))) {
                    carrier = component;
                }
            }
            if (carrier == null) {
                throw new IllegalStateException(sbom + " has no component " + embedded.getKey()
                        + ", which NOTICE says carries embedded code");
            }
            List<Object> nested = new ArrayList<>(carrier.containsKey("components") ? asList(carrier.get("components")) : List.of());
            nested.addAll(embedded.getValue());
            carrier.put("components", nested);
        }
        JsonFactory json = new JsonFactory();
        try (JsonGenerator out = json.createGenerator(sbom, JsonEncoding.UTF8)) {
            out.useDefaultPrettyPrinter();
            write(out, bom);
        }
        System.out.println("EmbeddedCodeSbom: " + nestedBy.values().stream().mapToInt(List::size).sum()
                + " embedded components nested in " + nestedBy.size() + " libraries of " + sbom);
    }

    private static Map<String, Object> component(String code, String version, String licence, String inside,
            String packages) {
        Map<String, Object> component = new LinkedHashMap<>();
        component.put("type", "library");
        component.put("bom-ref", "embedded:" + inside + "/" + code + ("-".equals(version) ? "" : "@" + version));
        int colon = code.indexOf(':');
        if (colon >= 0) {
            component.put("group", code.substring(0, colon));
            component.put("name", code.substring(colon + 1));
        } else {
            component.put("name", code);
        }
        if (!"-".equals(version)) {
            component.put("version", version);
        }
        Map<String, Object> licenceEntry = new LinkedHashMap<>();
        if (licence.contains(" AND ") || licence.contains(" OR ")) {
            licenceEntry.put("expression", licence);
        } else {
            licenceEntry.put("license", new LinkedHashMap<>(Map.of("id", licence)));
        }
        component.put("licenses", List.of(licenceEntry));
        if (colon >= 0 && !"-".equals(version)) {
            // The original's purl, so that scanners match its advisories; the pedigree says where it went.
            component.put("purl", "pkg:maven/" + code.replace(':', '/') + "@" + version + "?type=jar");
        }
        component.put("pedigree", new LinkedHashMap<>(Map.of("notes",
                "Embedded in " + inside + ", under the packages " + packages + " of the server jar.")));
        return component;
    }

    private static Object read(File file) throws IOException {
        try (JsonParser in = new JsonFactory().createParser(file)) {
            in.nextToken();
            return value(in);
        }
    }

    private static Object value(JsonParser in) throws IOException {
        JsonToken token = in.currentToken();
        switch (token) {
            case START_OBJECT: {
                Map<String, Object> object = new LinkedHashMap<>();
                while (in.nextToken() == JsonToken.FIELD_NAME) {
                    String name = in.currentName();
                    in.nextToken();
                    object.put(name, value(in));
                }
                return object;
            }
            case START_ARRAY: {
                List<Object> array = new ArrayList<>();
                while (in.nextToken() != JsonToken.END_ARRAY) {
                    array.add(value(in));
                }
                return array;
            }
            case VALUE_STRING:
                return in.getText();
            case VALUE_NUMBER_INT:
            case VALUE_NUMBER_FLOAT:
                return new JsonNumber(in.getText());
            case VALUE_TRUE:
            case VALUE_FALSE:
                return in.getBooleanValue();
            case VALUE_NULL:
                return null;
            default:
                throw new IOException("unexpected " + token + " at " + in.currentLocation());
        }
    }

    private static void write(JsonGenerator out, Object value) throws IOException {
        if (value instanceof Map<?, ?> object) {
            out.writeStartObject();
            for (Map.Entry<?, ?> field : object.entrySet()) {
                out.writeFieldName((String) field.getKey());
                write(out, field.getValue());
            }
            out.writeEndObject();
        } else if (value instanceof List<?> array) {
            out.writeStartArray();
            for (Object element : array) {
                write(out, element);
            }
            out.writeEndArray();
        } else if (value instanceof String text) {
            out.writeString(text);
        } else if (value instanceof JsonNumber number) {
            out.writeNumber(number.text());
        } else if (value instanceof Boolean bool) {
            out.writeBoolean(bool);
        } else {
            out.writeNull();
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asObject(Object value) {
        return (Map<String, Object>) value;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> asList(Object value) {
        return (List<Object>) value;
    }
}
