package org.storeservice.codec.fuzz;

import static org.storeservice.codec.Fixture.NS;
import static org.storeservice.codec.Fixture.soap11;
import static org.storeservice.codec.Fixture.soap12;
import static org.storeservice.codec.Fixture.writeBytes;
import static org.storeservice.codec.Fixture.writeString;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Writes the seed corpus of {@link CodecFuzzTest} from the golden tests' requests (SoapGoldenTest,
 * SoapParametersTest, SecurityTest, HttpGoldenTest, MetadataPagesTest, HelpPagesTest). The committed files are
 * the source of truth; this only made the first ones, and re-running it rewrites them byte for byte. Run from
 * the store-codec folder: {@code java -cp target/test-classes:target/classes:<deps> ...FuzzSeeds}, or from an IDE.
 */
public final class FuzzSeeds {
    private static final Path INPUTS = Path.of("src/test/resources/org/storeservice/codec/fuzz/CodecFuzzTestInputs");

    private FuzzSeeds() {
    }

    public static void main(String[] args) throws IOException {
        String wsBody = writeString("k", "v");
        String xxe = "<?xml version=\"1.0\"?>\n<!DOCTYPE soap:Envelope [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n";
        String mustUnderstand = "<soap:Header><Auth xmlns=\"urn:x\" soap:mustUnderstand=\"1\">t</Auth></soap:Header>";
        String tricky = "<key>k\uD800\uDF48</key><value>\uD83D\uDE00 &lt;&amp;&gt;&quot;' tab\tend\r\nline&#13;\r"
                + "<![CDATA[<cdata>]]></value>";
        List<String> soap11Bodies = List.of(
                soap11(wsBody),
                soap11(writeBytes("k", "aGk=")),
                soap11("<WriteString xmlns=\"" + NS + "\"/>"),
                soap11("<WriteString xmlns=\"" + NS + "\"><key/><value xsi:nil=\"true\"/></WriteString>"),
                soap11("<WriteString xmlns=\"" + NS + "\">" + tricky + "</WriteString>"),
                soap11("<WriteBytes xmlns=\"" + NS + "\"><key>b</key><content>AQ ID\nBA==</content><key>c</key></WriteBytes>"),
                soap11("<WriteBytes xmlns=\"" + NS + "\"><key>k</key><content>A=B</content></WriteBytes>"),
                soap11("<x/><WriteBytes xmlns=\"" + NS + "\"><key>b</key></WriteBytes>"),
                soap11("<Nope xmlns=\"" + NS + "\"/>"),
                soap11(wsBody).replace("<soap:Body>", mustUnderstand + "<soap:Body>"),
                "<?xml version=\"1.0\" encoding=\"iso-8859-1\"?>" + soap11(writeString("k", "\u00e9")),
                xxe + soap11(writeString("k", "&xxe;")),
                soap12(wsBody),
                "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body><x></y>",
                soap11(wsBody).substring(0, 120),
                "");
        // choices, last byte first: SOAPAction, Content-Type, read size, Content-Length (see CodecFuzzTest)
        int[][] soap11Choices = {{1, 0, 0, 1}, {2, 1, 1, 0}, {1, 0, 2, 1}, {1, 0, 3, 0}, {1, 0, 1, 1}, {2, 0, 2, 0},
            {2, 0, 0, 1}, {1, 0, 3, 1}, {0, 1, 0, 0}, {1, 0, 0, 1}, {3, 4, 4, 1}, {1, 0, 0, 1}, {1, 0, 0, 1},
            {1, 0, 1, 0}, {1, 0, 0, 1}, {4, 2, 0, 0}};
        write("soap11Post", soap11Bodies, soap11Choices);

        List<String> soap12Bodies = List.of(
                soap12(wsBody),
                soap12(writeBytes("k", "aGk=")),
                soap12("<WriteBytes xmlns=\"" + NS + "\"><key>k</key></WriteBytes>"),
                soap12("<WriteString xmlns=\"" + NS + "\">" + tricky + "</WriteString>"),
                soap12(wsBody).replace("<soap12:Body>", mustUnderstand.replace("soap:", "soap12:") + "<soap12:Body>"),
                soap11(wsBody),
                soap12(writeBytes("k", "====")).substring(0, 150));
        // choices, last byte first: Content-Type, read size, Content-Length
        int[][] soap12Choices = {{0, 0, 1}, {3, 1, 0}, {1, 2, 1}, {0, 3, 0}, {2, 0, 1}, {0, 4, 1}, {4, 1, 0}};
        write("soap12Post", soap12Bodies, soap12Choices);

        List<String> getTargets = List.of("WriteString?key=k&value=a+b%26c%E2%82%AC",
                "WriteBytes?key=k&content=104&content=105", "WriteString?key=&value=v",
                "WriteString?KEY=k&Value=a&value=b&other=x&noequals", "writestring?key=k&value=v",
                "WriteBytes?key=k&content=256", "WriteBytes?key=k&content=+abc", "WriteBytes?key=k&content=%3C9%3E",
                "WriteString/x?key=k&value=v", "Nope", "", "WriteString?key=%ZZ%u0041&value=%C3%28");
        write("httpGet", getTargets, new int[getTargets.size()][0]);

        List<String> forms = List.of("WriteString\nkey=k&value=v", "WriteBytes\nkey=k&content=0&content=255&content=+7",
                "WriteString\nkey=k", "WriteString\nkey=k&value=v", "Nope\nkey=k", "WriteBytes\nkey=k&content=-1",
                "WriteString\nkey=%E2%82%AC&value=%FF");
        // choices, last byte first: Content-Type, read size, Content-Length
        int[][] formChoices = {{0, 0, 1}, {1, 1, 0}, {0, 2, 1}, {3, 0, 1}, {2, 0, 0}, {0, 3, 1}, {5, 4, 0}};
        write("httpPostForm", forms, formChoices);

        List<String> queries = List.of("wsdl\nlocalhost:8080", "WSDL", "disco\nh", "", "op=WriteString\na.example",
                "op=WriteBytes\n[::1]:8080", "op=Nope", "wsdl=x", "schema=x", "%57sdl", "wsdl&foo",
                "op=%3Cscript%3Ealert(1)%3C%2Fscript%3E\nh", "wsdl\n<evil>&\"host'", "&&=&op");
        write("metadataQuery", queries, new int[queries.size()][0]);
    }

    /** Writes one seed per request: its UTF-8 text, then its choice bytes in reverse (the last is taken first). */
    private static void write(String method, List<String> texts, int[][] choices) throws IOException {
        Path directory = INPUTS.resolve(method);
        Files.createDirectories(directory);
        for (int i = 0; i < texts.size(); i++) {
            ByteArrayOutputStream seed = new ByteArrayOutputStream();
            seed.writeBytes(texts.get(i).getBytes(StandardCharsets.UTF_8));
            for (int j = choices[i].length - 1; j >= 0; j--) {
                seed.write(choices[i][j]);
            }
            Files.write(directory.resolve(String.format("seed-%02d", i)), seed.toByteArray());
        }
        System.out.println(texts.size() + " seeds in " + directory);
    }
}
