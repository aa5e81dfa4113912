package org.storeservice.jdbc;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The module's package rules, as ARCHITECTURE.md states them, read from the sources: the engines never import each
 * other; the shared internals import no engine and nothing of the API package; an engine takes nothing from the API
 * package but its own config (and {@code Synchronous}, SQLite's).
 */
class PackageDependenciesTest {
    private static final Path SOURCES = Path.of("src/main/java/org/storeservice/jdbc");
    private static final Pattern IMPORT = Pattern.compile("^import (?:static )?org\\.storeservice\\.jdbc\\.([\\w.]+);",
            Pattern.MULTILINE);

    @Test
    void theEnginesAndTheSharedInternalsImportOnlyWhatTheRulesAllow() throws IOException {
        List<String> broken = new ArrayList<>();
        check("internal", List.of(), broken);
        check("sqlite", List.of("internal.", "SqliteStorageConfig", "Synchronous"), broken);
        check("postgres", List.of("internal.", "PostgresStorageConfig"), broken);
        assertEquals(List.of(), broken);
    }

    /** Adds to {@code broken} each import of ours in {@code pkg} that starts with none of {@code allowed}. */
    private static void check(String pkg, List<String> allowed, List<String> broken) throws IOException {
        try (Stream<Path> files = Files.list(SOURCES.resolve(pkg))) {
            for (Path file : files.toList()) {
                Matcher imported = IMPORT.matcher(Files.readString(file));
                while (imported.find()) {
                    String name = imported.group(1);
                    if (!name.startsWith(pkg + ".") && allowed.stream().noneMatch(name::startsWith)) {
                        broken.add(pkg + "/" + file.getFileName() + " imports org.storeservice.jdbc." + name);
                    }
                }
            }
        }
    }
}
