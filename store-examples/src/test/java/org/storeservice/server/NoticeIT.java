package org.storeservice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * NOTICE names, with its licence, every library the server jar bundles (the build lists them in
 * target/bundled-libraries.txt) and no other; the jar carries LICENSE and the project's NOTICE.
 */
class NoticeIT {
    private static final Pattern DEPENDENCY = Pattern.compile("^\\s+([\\w.-]+):([\\w.-]+):jar:.*$", Pattern.MULTILINE);
    private static final Pattern LISTED = Pattern.compile("^\\| ([\\w.-]+:[\\w.-]+) \\| [^|]+ \\|$", Pattern.MULTILINE);

    @Test
    void noticeListsExactlyTheLibrariesTheServerJarBundles() throws Exception {
        TreeSet<String> bundled = new TreeSet<>();
        Matcher dependency = DEPENDENCY.matcher(Files.readString(Path.of("target", "bundled-libraries.txt")));
        while (dependency.find()) {
            bundled.add(dependency.group(1) + ":" + dependency.group(2));
        }
        assertTrue(bundled.size() > 10, "the build's list of bundled libraries: " + bundled);
        List<String> listed = new ArrayList<>();
        Matcher row = LISTED.matcher(Files.readString(Path.of("..", "NOTICE")));
        while (row.find()) {
            listed.add(row.group(1));
        }
        assertEquals(List.copyOf(bundled), listed, "NOTICE's table, against what store-server.jar bundles");
        try (JarFile jar = new JarFile(ServerJar.JAR.toFile())) {
            assertTrue(jar.getEntry("META-INF/LICENSE") != null, "the jar carries LICENSE");
            String notice = new String(jar.getInputStream(jar.getEntry("META-INF/NOTICE")).readAllBytes(),
                    StandardCharsets.UTF_8);
            assertTrue(notice.startsWith("Store\n"), "the jar's NOTICE starts with the project's own: " + notice);
        }
    }
}
