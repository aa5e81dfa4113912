package org.storeservice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.storeservice.jdbc.PostgresStorageConfig;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The packages' example settings, the Debian package's {@code /etc/store/store.env} and the tarball's
 * {@code store.env.example}: each names only variables the server reads, the two name the same ones, and the tarball's
 * keeps to paths of its own (relative to where the server starts), not the Debian package's.
 */
class SettingsExamplesTest {
    private static final Path DEBIAN = Path.of("src/packaging/store.env");
    private static final Path TARBALL = Path.of("src/packaging/tarball/store.env");
    /** An assignment, set or commented out: {@code STORE_PORT=8080}, {@code #JAVA_OPTS=-Xmx512m}. */
    private static final Pattern ASSIGNMENT = Pattern.compile("(?m)^#?([A-Z][A-Z0-9_]*)=(.*)$");

    @Test
    void everyVariableIsOneTheServerOrItsLauncherReads() throws IOException {
        Set<String> read = new TreeSet<>(Set.of("JAVA", "JAVA_OPTS", FrontDoorOptions.KEYSTORE_PASSWORD_VARIABLE,
                PostgresStorageConfig.PASSWORD_VARIABLE));
        CommandLine serve = new Main(ToolRun.context(InputStream.nullInputStream(), new ByteArrayOutputStream(),
                new ByteArrayOutputStream(), Map.of(), hook -> { })).commandLine().getSubcommands().get("serve");
        for (OptionSpec option : serve.getCommandSpec().options()) {
            if (EnvironmentDefaults.readsEnvironment(option)) {
                read.add(EnvironmentDefaults.variable(option));
            }
        }
        for (Path example : List.of(DEBIAN, TARBALL)) {
            List<String> unknown = new ArrayList<>(variables(example).keySet());
            unknown.removeAll(read);
            assertEquals(List.of(), unknown, example + " names variables nothing reads");
        }
        assertEquals(variables(DEBIAN).keySet(), variables(TARBALL).keySet(), "the two examples name different settings");
    }

    @Test
    void theTarballsExampleKeepsToItsOwnPaths() throws IOException {
        Map<String, String> tarball = variables(TARBALL);
        assertEquals("sqlite:data/store.db", tarball.get("STORE_STORAGE"));
        assertEquals("sqlite:/var/lib/store/store.db", variables(DEBIAN).get("STORE_STORAGE"));
        String text = Files.readString(TARBALL);
        assertTrue(!text.contains("/var/lib/store") && !text.contains("/etc/store"), text);
    }

    /** The variables {@code example} sets or shows commented out, with their values, in order. */
    private static Map<String, String> variables(Path example) throws IOException {
        Map<String, String> variables = new LinkedHashMap<>();
        Matcher assignment = ASSIGNMENT.matcher(Files.readString(example));
        while (assignment.find()) {
            variables.put(assignment.group(1), assignment.group(2));
        }
        assertTrue(variables.size() > 5, example + ": " + variables);
        return variables;
    }
}
