package org.storeservice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * A Java block in the docs that is a whole source file of this module ({@code package org.storeservice.examples...})
 * is that file, as it is compiled and tested: a reader who copies it gets code that builds and passes.
 */
class DocumentedSourcesTest {
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(package (org\\.storeservice\\.examples[\\w.]*);.*?)```",
            Pattern.DOTALL);
    private static final Pattern TYPE = Pattern.compile("^(?:public )?(?:final |abstract )*(?:class|interface|record) (\\w+)",
            Pattern.MULTILINE);

    @Test
    void everyWholeSourceFileInTheDocsIsTheCompiledOne() throws IOException {
        List<String> shown = new ArrayList<>();
        for (String page : List.of("docs/storage.md", "docs/embedding.md")) {
            Matcher block = JAVA_BLOCK.matcher(Files.readString(ROOT.resolve(page)));
            while (block.find()) {
                String source = block.group(1);
                Matcher type = TYPE.matcher(source);
                assertTrue(type.find(), page + ": a source block with no top-level type");
                String file = block.group(2).replace('.', '/') + "/" + type.group(1) + ".java";
                Path main = ROOT.resolve("store-examples/src/main/java").resolve(file);
                Path test = ROOT.resolve("store-examples/src/test/java").resolve(file);
                Path compiled = Files.exists(main) ? main : test;
                assertTrue(Files.exists(compiled), page + " shows " + file + ", which is not in store-examples");
                assertEquals(Files.readString(compiled), source, page + " shows " + file + " otherwise than it is");
                shown.add(page + ": " + file);
            }
        }
        assertEquals(List.of(
                "docs/storage.md: org/storeservice/examples/minimal/SortedMapStorage.java",
                "docs/storage.md: org/storeservice/examples/minimal/SortedMapStorageContractTest.java",
                "docs/embedding.md: org/storeservice/examples/embed/EmbedInJettyExample.java"), shown);
    }
}
