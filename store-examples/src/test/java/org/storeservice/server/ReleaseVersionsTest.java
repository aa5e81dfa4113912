package org.storeservice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import javax.xml.XMLConstants;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * store-bom and the modules it names are released together: one version and one build timestamp in the root POM
 * and the BOM's (versions:set sets them all, docs/release.md), every module's parent at that version, and the BOM
 * managing exactly the published modules (those without {@code maven.deploy.skip}), each at the BOM's own version.
 */
class ReleaseVersionsTest {
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @Test
    void theBomAndTheModulesAreOneRelease() throws Exception {
        Element root = pom(ROOT.resolve("pom.xml"));
        Element bom = pom(ROOT.resolve("store-bom/pom.xml"));
        String version = text(root, "version");
        assertTrue(version.matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?"), version);
        assertEquals(version, text(bom, "version"), "store-bom's version");
        assertEquals(text(element(root, "properties"), "project.build.outputTimestamp"),
                text(element(bom, "properties"), "project.build.outputTimestamp"), "store-bom's project.build.outputTimestamp");

        TreeSet<String> published = new TreeSet<>();
        List<String> wrong = new ArrayList<>();
        for (Element module : children(element(root, "modules"), "module")) {
            if (module.getTextContent().equals("store-bom")) {
                continue;
            }
            Element pom = pom(ROOT.resolve(module.getTextContent()).resolve("pom.xml"));
            if (!version.equals(text(element(pom, "parent"), "version"))) {
                wrong.add(module.getTextContent() + "'s parent is at " + text(element(pom, "parent"), "version"));
            }
            if (!"true".equals(text(element(pom, "properties"), "maven.deploy.skip"))) {
                published.add(text(pom, "artifactId"));
            }
        }
        TreeSet<String> managed = new TreeSet<>();
        for (Element dependency : children(element(element(bom, "dependencyManagement"), "dependencies"), "dependency")) {
            managed.add(text(dependency, "artifactId"));
            String managedVersion = text(dependency, "version");
            if (!"${project.version}".equals(managedVersion) && !version.equals(managedVersion)) {
                wrong.add("store-bom manages " + text(dependency, "artifactId") + " at " + managedVersion);
            }
        }
        assertEquals(List.of(), wrong);
        assertTrue(published.size() >= 8, "published modules: " + published);
        assertEquals(published, managed, "store-bom's modules, against the modules that are published");
    }

    private static Element pom(Path file) throws Exception {
        assertTrue(Files.isRegularFile(file), file.toString());
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        factory.setAttribute(XMLConstants.ACCESS_EXTERNAL_DTD, "");
        DocumentBuilder builder = factory.newDocumentBuilder();
        return builder.parse(file.toFile()).getDocumentElement();
    }

    /** {@code parent}'s first child element {@code name}, or null. */
    private static Element element(Element parent, String name) {
        List<Element> found = children(parent, name);
        return found.isEmpty() ? null : found.get(0);
    }

    /** The text of {@code parent}'s first child element {@code name}, or null. */
    private static String text(Element parent, String name) {
        Element element = element(parent, name);
        return element == null ? null : element.getTextContent().strip();
    }

    /** {@code parent}'s child elements named {@code name}. */
    private static List<Element> children(Element parent, String name) {
        List<Element> found = new ArrayList<>();
        if (parent == null) {
            return found;
        }
        NodeList nodes = parent.getChildNodes();
        for (int i = 0; i < nodes.getLength(); i++) {
            Node node = nodes.item(i);
            if (node instanceof Element element && element.getTagName().equals(name)) {
                found.add(element);
            }
        }
        return found;
    }
}
