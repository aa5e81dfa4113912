package org.storeservice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * NOTICE names, with its licence, every library the server jar bundles (the build lists them in
 * target/bundled-libraries.txt) and no other; the jar carries LICENSE and the project's NOTICE. NOTICE's second table
 * names the code those libraries embed (shaded under their own packages): the packages it gives are in the jar, and
 * every package of the jar with a {@code shaded} segment is one of them. The release build nests the same rows in the
 * server's SBOM (src/build/EmbeddedCodeSbom.java).
 */
class NoticeIT {
    private static final Pattern DEPENDENCY = Pattern.compile("^\\s+([\\w.-]+):([\\w.-]+):jar:.*$", Pattern.MULTILINE);
    private static final Pattern LISTED = Pattern.compile("^\\| ([\\w.-]+:[\\w.-]+) \\| [^|]+ \\|$", Pattern.MULTILINE);
    /** A row of the embedded-code table: code, version, licence, the library it is inside, its packages. */
    private static final Pattern EMBEDDED = Pattern.compile(
            "^\\| ([^|:\\s]+(?::[^|\\s]+)?) \\| ([^|\\s]+) \\| ([^|]+?) \\| ([\\w.-]+:[\\w.-]+) \\| ([^|]+?) \\|$",
            Pattern.MULTILINE);

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

    @Test
    void noticeListsTheCodeTheBundledLibrariesEmbedWhereTheJarHoldsIt() throws Exception {
        String notice = Files.readString(Path.of("..", "NOTICE"));
        Set<String> bundled = new TreeSet<>();
        Matcher library = LISTED.matcher(notice);
        while (library.find()) {
            bundled.add(library.group(1));
        }
        Set<String> packages = new TreeSet<>();
        try (JarFile jar = new JarFile(ServerJar.JAR.toFile())) {
            jar.stream().map(JarEntry::getName).filter(name -> name.endsWith(".class") && name.contains("/"))
                    .map(name -> name.replaceFirst("^META-INF/versions/\\d+/", ""))
                    .map(name -> name.substring(0, name.lastIndexOf('/')).replace('/', '.'))
                    .forEach(packages::add);
        }
        List<String> declared = new ArrayList<>();
        List<String> wrong = new ArrayList<>();
        Matcher row = EMBEDDED.matcher(notice);
        while (row.find()) {
            if (!bundled.contains(row.group(4))) {
                wrong.add(row.group(1) + " is said to be inside " + row.group(4) + ", which the jar does not bundle");
            }
            for (String prefix : row.group(5).split(", ")) {
                declared.add(prefix);
                if (packages.stream().noneMatch(name -> within(name, prefix))) {
                    wrong.add(row.group(1) + ": the jar has no package " + prefix);
                }
            }
        }
        assertTrue(declared.size() >= 10, "NOTICE's embedded code: " + declared);
        packages.stream().filter(name -> Arrays.asList(name.split("\\.")).contains("shaded"))
                .filter(name -> declared.stream().noneMatch(prefix -> within(name, prefix)))
                .forEach(name -> wrong.add("the jar's shaded package " + name + " is not in NOTICE"));
        assertEquals(List.of(), wrong);
    }

    /** Whether package {@code name} is {@code prefix} or inside it. */
    private static boolean within(String name, String prefix) {
        return name.equals(prefix) || name.startsWith(prefix + ".");
    }
}
