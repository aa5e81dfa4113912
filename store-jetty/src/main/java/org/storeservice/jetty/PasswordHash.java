package org.storeservice.jetty;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.security.spec.KeySpec;
import java.util.Base64;
import java.util.Objects;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * A salted PBKDF2-HMAC-SHA256 password hash as a users file keeps it:
 * {@code pbkdf2-sha256:ITERATIONS:SALT:HASH}, salt and hash in Base64. The iteration count travels with the
 * hash, so it can be raised for new entries without invalidating old ones. Immutable.
 */
record PasswordHash(int iterations, byte[] salt, byte[] hash) {
    static final String SCHEME = "pbkdf2-sha256";
    /** OWASP's 2023 recommendation for PBKDF2-HMAC-SHA256: it makes each guess at a stolen file cost. */
    static final int DEFAULT_ITERATIONS = 600_000;
    private static final int SALT_BYTES = 16;
    private static final int HASH_BITS = 256;
    private static final SecureRandom RANDOM = new SecureRandom();

    PasswordHash {
        if (iterations < 1) {
            throw new IllegalArgumentException("iterations must be positive: " + iterations);
        }
        Objects.requireNonNull(salt, "salt");
        Objects.requireNonNull(hash, "hash");
    }

    /** A new hash of {@code password} under a fresh random salt. */
    static PasswordHash of(char[] password, int iterations) {
        byte[] salt = new byte[SALT_BYTES];
        RANDOM.nextBytes(salt);
        return new PasswordHash(iterations, salt, derive(password, salt, iterations));
    }

    /** Parses {@link #toString()}'s form. */
    static PasswordHash parse(String text) {
        String[] parts = text.split(":", -1);
        if (parts.length != 4 || !parts[0].equals(SCHEME)) {
            throw new IllegalArgumentException("Not a " + SCHEME + ":ITERATIONS:SALT:HASH password hash");
        }
        try {
            return new PasswordHash(Integer.parseInt(parts[1]), Base64.getDecoder().decode(parts[2]),
                    Base64.getDecoder().decode(parts[3]));
        } catch (IllegalArgumentException e) { // NumberFormatException is one
            throw new IllegalArgumentException("Malformed " + SCHEME + " password hash: " + e.getMessage(), e);
        }
    }

    /** Whether {@code password} hashes to this hash; compared in constant time. */
    boolean matches(char[] password) {
        return MessageDigest.isEqual(hash, derive(password, salt, iterations));
    }

    private static byte[] derive(char[] password, byte[] salt, int iterations) {
        KeySpec spec = new PBEKeySpec(password, salt, iterations, HASH_BITS);
        try {
            return SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("PBKDF2WithHmacSHA256 is part of every Java 17 runtime", e);
        }
    }

    @Override
    public String toString() {
        return SCHEME + ':' + iterations + ':' + Base64.getEncoder().encodeToString(salt) + ':'
                + Base64.getEncoder().encodeToString(hash);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof PasswordHash that && that.toString().equals(toString());
    }

    @Override
    public int hashCode() {
        return toString().hashCode();
    }
}
