package org.storeservice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No relative link or anchor in the project's Markdown (README.md, docs/, ARCHITECTURE.md, BENCHMARKS.md,
 * CHANGELOG.md, deploy/) is dead: each linked file exists, and each {@code #anchor} is a heading of its page, by
 * GitHub's rule (lower case, punctuation dropped, spaces to hyphens, a repeated heading numbered).
 */
class DocumentationLinksTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();
    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} +(.+?)\\s*$");

    @Test
    void everyRelativeLinkAndAnchorLeadsSomewhere() throws IOException {
        List<Path> pages = pages();
        assertTrue(pages.contains(ROOT.resolve("README.md")) && pages.size() > 5, "pages found: " + pages);
        List<String> dead = new ArrayList<>();
        Map<Path, Set<String>> anchors = new HashMap<>();
        int checked = 0;
        for (Path page : pages) {
            for (String target : links(page)) {
                if (target.matches("^[a-z][a-z0-9+.-]*:.*")) {
                    continue; // https:, mailto:: not this test's to check
                }
                int hash = target.indexOf('#');
                String file = hash < 0 ? target : target.substring(0, hash);
                Path linked = file.isEmpty() ? page : page.getParent().resolve(file).normalize();
                checked++;
                if (!Files.exists(linked)) {
                    dead.add(ROOT.relativize(page) + ": " + target + " (no such file)");
                } else if (hash >= 0 && !anchors.computeIfAbsent(linked, DocumentationLinksTest::anchors)
                        .contains(target.substring(hash + 1))) {
                    dead.add(ROOT.relativize(page) + ": " + target + " (no such heading)");
                }
            }
        }
        assertTrue(checked > 20, "links checked: " + checked);
        assertEquals(List.of(), dead);
    }

    private static List<Path> pages() throws IOException {
        List<Path> pages = new ArrayList<>();
        for (String name : List.of("README.md", "ARCHITECTURE.md", "BENCHMARKS.md", "CHANGELOG.md")) {
            pages.add(ROOT.resolve(name));
        }
        for (String folder : List.of("docs", "deploy")) {
            try (Stream<Path> files = Files.walk(ROOT.resolve(folder))) {
                files.filter(f -> f.toString().endsWith(".md")).sorted().forEach(pages::add);
            }
        }
        return pages;
    }

    /** The link targets of {@code page}, outside fenced code blocks and inline code. */
    private static List<String> links(Path page) throws IOException {
        List<String> targets = new ArrayList<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
            if (line.stripLeading().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            if (fenced) {
                continue;
            }
            Matcher link = LINK.matcher(line.replaceAll("`[^`]*`", ""));
            while (link.find()) {
                targets.add(link.group(1));
            }
        }
        return targets;
    }

    /** The anchors GitHub gives the headings of {@code page}. */
    private static Set<String> anchors(Path page) {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        try {
            for (String line : Files.readAllLines(page, StandardCharsets.UTF_8)) {
                if (line.stripLeading().startsWith("```")) {
                    fenced = !fenced;
                }
                Matcher heading = HEADING.matcher(line);
                if (fenced || !heading.matches()) {
                    continue;
                }
                String slug = heading.group(1).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "")
                        .replace(' ', '-');
                int count = seen.merge(slug, 1, Integer::sum);
                anchors.add(count == 1 ? slug : slug + "-" + (count - 1));
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return anchors;
    }
}
