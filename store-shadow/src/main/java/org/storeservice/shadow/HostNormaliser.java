package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import java.net.URI;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Replaces one endpoint's host, with or without its port, by {@link #PLACEHOLDER}: what {@code compare} and the shadow
 * proxy normalise before comparing two services' answers, since the WSDL, disco and help pages name the host the
 * client used. The host is matched case-insensitively and only as a whole name ({@code example.com} is not replaced
 * inside {@code www.example.com} or {@code example.com.au}); its port may follow, the URL's own or, if the URL names
 * none, the scheme's default. Immutable and thread-safe.
 */
public final class HostNormaliser {
    /** What the host is replaced by. */
    public static final String PLACEHOLDER = "{host}";

    private final Pattern host;

    /** Normalises the host (and port) of {@code endpoint}, an absolute URL. */
    public HostNormaliser(URI endpoint) {
        int port = endpoint.getPort() != -1 ? endpoint.getPort() : "https".equalsIgnoreCase(endpoint.getScheme()) ? 443 : 80;
        host = Pattern.compile("(?<![A-Za-z0-9.-])" + Pattern.quote(endpoint.getHost()) + "(?::" + port + ")?"
                + "(?![A-Za-z0-9-]|\\.[A-Za-z0-9]|:[0-9])", Pattern.CASE_INSENSITIVE);
    }

    /** {@code text} with the host replaced. */
    public String normalise(String text) {
        return host.matcher(text).replaceAll(Matcher.quoteReplacement(PLACEHOLDER));
    }

    /** {@code body} with the host replaced; every other byte as it was, whatever the encoding. */
    public byte[] normalise(byte[] body) {
        // ISO-8859-1 maps each byte to one char and back: the host (ASCII) is found, nothing else changes.
        return normalise(new String(body, ISO_8859_1)).getBytes(ISO_8859_1);
    }
}
