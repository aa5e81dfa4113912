package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The rules two services' answers are compared by, shared by {@code compare} and the shadow proxy: the status code,
 * the {@link #HEADERS} and the body byte for byte, each service's own host normalised ({@link HostNormaliser}) in the
 * body and the location headers; and the {@link DocumentedChoice}s, the ways Store answers differently from ASMX on
 * purpose (docs/wire-compatibility.md, "Deliberately different"), which are not differences.
 */
public final class ComparisonRules {
    /** The response headers compared, the only ones: what a client acts on. Server, Date and the like are not. */
    public static final List<String> HEADERS = List.of("Content-Type", "Cache-Control", "Allow", "WWW-Authenticate",
            "Location", "Content-Location");
    /** The headers that may name the host, normalised like the body. */
    static final Set<String> LOCATION_HEADERS = Set.of("location", "content-location");
    private static final Pattern TITLE = Pattern.compile("<title>(.*?)</title>", Pattern.CASE_INSENSITIVE | Pattern.DOTALL);

    private ComparisonRules() {
    }

    /** Whether header {@code name} may name the host. */
    public static boolean isLocationHeader(String name) {
        return LOCATION_HEADERS.contains(name.toLowerCase(Locale.ROOT));
    }

    /** What a documented choice lets differ. */
    public enum DocumentedChoice {
        /**
         * A 400 or 415 SOAP answer: ASMX sends the status with no body, Store the same status with a fault saying what
         * was wrong. When one body is empty and the other not, neither the bodies nor their Content-Type are compared.
         */
        FAULT_BODY_ON_400_AND_415("400 and 415 SOAP answers: ASMX sends no body, Store a fault saying why"),
        /**
         * A 405 or 500 HTML error page: ASMX's "yellow screen" page, Store a small page with the same title and
         * message. Of two HTML pages with these statuses, only the {@code <title>} texts are compared.
         */
        ERROR_PAGE_LAYOUT("HTML error pages (405, 500): only their titles are compared");

        private final String description;

        DocumentedChoice(String description) {
            this.description = description;
        }

        /** One line saying what it lets differ, for reports. */
        public String description() {
            return description;
        }
    }

    /**
     * The documented choice under which two answers of the same status may have different bodies and Content-Types,
     * or {@code null} if none applies; for {@link DocumentedChoice#ERROR_PAGE_LAYOUT}, only if the titles agree.
     */
    public static DocumentedChoice documentedChoice(int status, String typeA, byte[] bodyA, String typeB, byte[] bodyB) {
        if ((status == 400 || status == 415) && (bodyA.length == 0) != (bodyB.length == 0)) {
            return DocumentedChoice.FAULT_BODY_ON_400_AND_415;
        }
        if ((status == 405 || status == 500) && isHtml(typeA) && isHtml(typeB)) {
            String titleA = title(bodyA);
            if (titleA != null && titleA.equals(title(bodyB))) {
                return DocumentedChoice.ERROR_PAGE_LAYOUT;
            }
        }
        return null;
    }

    private static boolean isHtml(String contentType) {
        return contentType != null && contentType.regionMatches(true, 0, "text/html", 0, 9);
    }

    /** The first {@code <title>}'s text, white space runs made one space, or {@code null}. */
    private static String title(byte[] html) {
        Matcher matcher = TITLE.matcher(new String(html, UTF_8));
        return matcher.find() ? matcher.group(1).strip().replaceAll("\\s+", " ") : null;
    }
}
