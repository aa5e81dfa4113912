package org.storeservice.jetty;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The users of HTTP Basic authentication (see {@link BasicAuthHandler}), read from a users file: one line
 * per user, {@code NAME:pbkdf2-sha256:ITERATIONS:SALT:HASH} (salted PBKDF2-HMAC-SHA256, salt and hash in
 * Base64); blank lines and lines starting with {@code #} are ignored. The file holds no password, so a copy
 * that leaks costs an attacker a PBKDF2 run per guess. {@link #addTo(Path, String, char[])} writes entries.
 *
 * <p>Immutable and thread-safe; a changed file takes effect when it is loaded again.
 */
public final class BasicUsers {
    private final Map<String, PasswordHash> users;
    /** Compared against for an unknown name, so that a wrong name costs as long as a wrong password. */
    private final PasswordHash decoy;

    private BasicUsers(Map<String, PasswordHash> users) {
        this.users = Map.copyOf(users);
        this.decoy = PasswordHash.of(new char[0], users.values().stream()
                .mapToInt(PasswordHash::iterations).max().orElse(PasswordHash.DEFAULT_ITERATIONS));
    }

    /**
     * Reads a users file.
     *
     * @param file one {@code name:hash} line per user, as {@link #addTo} writes them
     * @return its users
     * @throws IOException if it cannot be read
     * @throws IllegalArgumentException if a line is malformed (the message names its number, never its content)
     */
    public static BasicUsers load(Path file) throws IOException {
        Map<String, PasswordHash> users = new HashMap<>();
        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i).strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            int colon = line.indexOf(':');
            try {
                if (colon <= 0) {
                    throw new IllegalArgumentException("no user name");
                }
                users.put(line.substring(0, colon), PasswordHash.parse(line.substring(colon + 1)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("Malformed line " + (i + 1) + " in users file " + file + ": "
                        + e.getMessage(), e);
            }
        }
        return new BasicUsers(users);
    }

    /**
     * {@return a users file line for {@code name} and {@code password}}, under a fresh salt.
     *
     * @param name the user's name
     * @param password the password, hashed (PBKDF2-HMAC-SHA256), never written
     * @throws IllegalArgumentException if the name is empty or holds a colon or a control character (Basic
     *     authentication cannot carry either)
     */
    public static String entry(String name, char[] password) {
        return entry(name, password, PasswordHash.DEFAULT_ITERATIONS);
    }

    static String entry(String name, char[] password, int iterations) {
        checkName(name);
        return name + ':' + PasswordHash.of(Objects.requireNonNull(password, "password"), iterations);
    }

    /**
     * Adds {@code name} with {@code password} to the users file (created if absent), replacing the entry the
     * name had; other lines stay as they are. The file is replaced whole, never left half-written.
     *
     * @param file the users file
     * @param name the user's name
     * @param password the password, hashed, never written
     * @throws IOException if the file cannot be read or replaced
     */
    public static void addTo(Path file, String name, char[] password) throws IOException {
        String entry = entry(name, password);
        List<String> lines = new ArrayList<>();
        if (Files.exists(file)) {
            for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
                if (!line.strip().startsWith(name + ':')) {
                    lines.add(line);
                }
            }
        }
        lines.add(entry);
        Path absolute = file.toAbsolutePath();
        Path temporary = Files.createTempFile(absolute.getParent(), absolute.getFileName().toString(), ".tmp");
        try {
            Files.write(temporary, lines, StandardCharsets.UTF_8);
            Files.move(temporary, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temporary);
        }
    }

    private static void checkName(String name) {
        if (Objects.requireNonNull(name, "name").isEmpty() || name.indexOf(':') >= 0
                || name.chars().anyMatch(Character::isISOControl)) {
            throw new IllegalArgumentException("A user name must be non-empty, without ':' or control characters");
        }
    }

    /**
     * {@return whether {@code name} is a user whose password is {@code password}} Takes a PBKDF2 run either way.
     *
     * @param name the name the client sent
     * @param password the password the client sent
     */
    public boolean verify(String name, char[] password) {
        PasswordHash hash = users.get(name);
        boolean matches = (hash != null ? hash : decoy).matches(password);
        return hash != null && matches;
    }

    /** {@return how many users there are} */
    public int size() {
        return users.size();
    }

    @Override
    public String toString() {
        return "BasicUsers{" + users.size() + " users}";
    }
}
