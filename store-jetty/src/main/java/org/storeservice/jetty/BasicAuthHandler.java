package org.storeservice.jetty;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.Principal;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP Basic authentication (RFC 7617) against {@link BasicUsers}: a request without valid credentials gets
 * {@code 401} with {@code WWW-Authenticate: Basic realm="...", charset="UTF-8"} before its body is read. A
 * request that passes carries its user for the access log ({@code %u}).
 *
 * <p>With {@code publicMetadata}, a {@code GET} or {@code HEAD} of the endpoint path itself (the WSDL, the
 * disco document, the help pages; never a write) passes without credentials.
 *
 * <p>Checking a password costs a PBKDF2 run, tens of milliseconds by design, so credentials once verified are
 * remembered (as a keyed hash, never in clear, at most {@value #MAX_REMEMBERED} of them) and a client that
 * sends the same header again is let through at the cost of one HMAC. That cost is also why this handler
 * declares that it may block: Jetty calls it on a pool thread, never on a selector. Thread-safe.
 */
public final class BasicAuthHandler extends Handler.Wrapper {
    private static final Logger log = LoggerFactory.getLogger(BasicAuthHandler.class);
    private static final byte[] UNAUTHORIZED_BODY = "Unauthorized".getBytes(StandardCharsets.UTF_8);
    /** Bounds the memory of remembered credentials, whatever names and passwords clients send. */
    static final int MAX_REMEMBERED = 1024;
    private static final String HMAC = "HmacSHA256";

    private final BasicUsers users;
    private final String endpointPath;
    private final boolean publicMetadata;
    private final String challenge;
    private final SecretKeySpec rememberKey;
    /** Keyed hash of a verified Authorization header → its user name. */
    private final Map<String, String> remembered = new ConcurrentHashMap<>();

    /**
     * Serves to {@code handler} the requests of a user of {@code users}, and the others a {@code 401} challenge.
     *
     * @param users who may call, and their password hashes
     * @param realm shown by browsers in the login prompt
     * @param endpointPath the codec's endpoint path, whose metadata {@code publicMetadata} makes public
     * @param publicMetadata whether the WSDL, disco and help pages are served without credentials
     * @param handler what serves the requests let through
     */
    public BasicAuthHandler(BasicUsers users, String realm, String endpointPath, boolean publicMetadata,
            Handler handler) {
        super(Objects.requireNonNull(handler, "handler"));
        this.users = Objects.requireNonNull(users, "users");
        this.endpointPath = Objects.requireNonNull(endpointPath, "endpointPath");
        this.publicMetadata = publicMetadata;
        if (Objects.requireNonNull(realm, "realm").contains("\"") || realm.contains("\\")) {
            throw new IllegalArgumentException("realm must not contain '\"' or '\\': " + realm);
        }
        this.challenge = "Basic realm=\"" + realm + "\", charset=\"UTF-8\"";
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        this.rememberKey = new SecretKeySpec(key, HMAC);
    }

    /** Blocking, whatever the wrapped handler: a password check takes a PBKDF2 run, too long for a selector. */
    @Override
    public InvocationType getInvocationType() {
        return InvocationType.BLOCKING;
    }

    @Override
    public boolean handle(Request request, Response response, Callback callback) throws Exception {
        String user = authenticatedUser(request.getHeaders().get(HttpHeader.AUTHORIZATION));
        if (user != null) {
            Principal principal = () -> user;
            Request.setAuthenticationState(request, new Request.AuthenticationState() {
                @Override
                public Principal getUserPrincipal() {
                    return principal;
                }
            });
            return super.handle(request, response, callback);
        }
        if (publicMetadata && isMetadata(request)) {
            return super.handle(request, response, callback);
        }
        response.getHeaders().put(HttpHeader.WWW_AUTHENTICATE, challenge);
        StoreHandler.writePlain(401, UNAUTHORIZED_BODY, response, callback);
        return true;
    }

    private boolean isMetadata(Request request) {
        String method = request.getMethod();
        String path = request.getHttpURI().getDecodedPath();
        return (method.equals("GET") || method.equals("HEAD")) && path != null && path.equalsIgnoreCase(endpointPath);
    }

    /** The user that {@code authorization} proves, or {@code null}. */
    private String authenticatedUser(String authorization) {
        if (authorization == null || authorization.length() < 6
                || !authorization.regionMatches(true, 0, "Basic ", 0, 6)) {
            return null;
        }
        String credentials = authorization.substring(6).strip();
        String key = rememberKey(credentials);
        String user = remembered.get(key);
        if (user != null) {
            return user;
        }
        char[] decoded = decode(credentials);
        if (decoded == null) {
            return null;
        }
        try {
            int colon = indexOf(decoded, ':');
            if (colon < 0) {
                return null;
            }
            String name = new String(decoded, 0, colon);
            char[] password = Arrays.copyOfRange(decoded, colon + 1, decoded.length);
            try {
                if (!users.verify(name, password)) {
                    // The name is the client's text: not logged, so that nobody forges log lines with it.
                    log.debug("Basic authentication failed: wrong user name or password");
                    return null;
                }
            } finally {
                Arrays.fill(password, '\0');
            }
            if (remembered.size() >= MAX_REMEMBERED) {
                remembered.clear(); // cheap and bounded; busy clients are verified again once
            }
            remembered.put(key, name);
            return name;
        } finally {
            Arrays.fill(decoded, '\0');
        }
    }

    private String rememberKey(String credentials) {
        try {
            Mac mac = Mac.getInstance(HMAC);
            mac.init(rememberKey);
            return Base64.getEncoder().encodeToString(mac.doFinal(credentials.getBytes(StandardCharsets.ISO_8859_1)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is part of every Java 17 runtime", e);
        }
    }

    /** The Base64 {@code user:password}, decoded as UTF-8 (RFC 7617's charset); {@code null} if it is neither. */
    private static char[] decode(String base64) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(base64);
        } catch (IllegalArgumentException e) {
            return null;
        }
        try {
            CharBuffer chars = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
            char[] result = new char[chars.remaining()];
            chars.get(result);
            if (chars.hasArray()) {
                Arrays.fill(chars.array(), '\0');
            }
            return result;
        } catch (CharacterCodingException e) {
            return null;
        } finally {
            Arrays.fill(bytes, (byte) 0);
        }
    }

    private static int indexOf(char[] chars, char c) {
        for (int i = 0; i < chars.length; i++) {
            if (chars[i] == c) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public String toString() {
        return "BasicAuthHandler{" + users + ", publicMetadata=" + publicMetadata + '}';
    }
}
