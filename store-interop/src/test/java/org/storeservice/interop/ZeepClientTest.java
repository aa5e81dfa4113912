package org.storeservice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Python's zeep through each of the WSDL's four ports, writing text and bytes: the answers it prints and the
 * values stored must be exactly what was sent. Offline: zeep gets the SOAP encoding schema from a local copy
 * and may load no document but the server's.
 *
 * <p>One call cannot succeed, through no fault of the server: WriteBytes on the HTTP POST port. Its
 * {@code content} part is an array ({@code s1:StringArray}, one decimal field per byte, as ASMX reads
 * {@code byte[]}), and zeep 4.2.1 form-encodes a POST body with {@code urllib.parse.urlencode(items)}
 * without {@code doseq=True} ({@code zeep/wsdl/messages/mime.py}, {@code MimeContent.serialize}), so it
 * sends the list's Python repr as one field: {@code content=[0, 255, ...]}. (The GET port hands the list to
 * requests, which repeats the field, and works.) That case asserts the server's ASMX answer to such a field
 * and that nothing was stored.
 */
@Timeout(120)
class ZeepClientTest {
    /** Debian's interpreter, which python3-zeep is installed for (a pyenv or venv python3 may lack it). */
    static final Path PYTHON = Path.of("/usr/bin/python3");
    static final String INSTALL = "apt-get install python3-zeep";

    private static ServedStore store;

    @BeforeAll
    static void start() throws Exception {
        store = new ServedStore();
    }

    @AfterAll
    static void stop() throws Exception {
        if (store != null) {
            store.close();
        }
    }

    @BeforeEach
    void requireZeep() throws Exception {
        ExternalClient.requireExecutables("Python's zeep", INSTALL, PYTHON);
        Process probe = new ProcessBuilder(PYTHON.toString(), "-c", "import zeep")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        boolean imports = probe.waitFor(30, TimeUnit.SECONDS) && probe.exitValue() == 0;
        probe.destroyForcibly();
        ExternalClient.require(imports, "Python's zeep: " + PYTHON + " cannot import zeep", INSTALL);
    }

    @ParameterizedTest(name = "port {0}")
    @ValueSource(strings = {"StoreSoap", "StoreSoap12", "StoreHttpGet", "StoreHttpPost"})
    void writesTextAndBytes(String port) throws Exception {
        String prefix = "zeep-" + port;
        ClientRun run = ClientRun.succeeding(List.of(PYTHON.toString(), Resources.path("zeep_client.py"),
                store.wsdl(), port, prefix,
                ServedStore.hex(ServedStore.TEXT.getBytes(StandardCharsets.UTF_8)), ServedStore.hex(ServedStore.BYTES),
                Resources.path("soap-encoding.xsd")));

        store.assertStoredText(prefix + "-text", ServedStore.TEXT);
        if (port.equals("StoreHttpPost")) {
            String sentRepr = IntStream.range(0, ServedStore.BYTES.length)
                    .mapToObj(i -> String.valueOf(ServedStore.BYTES[i] & 0xFF))
                    .collect(Collectors.joining(", ", "[", "]"));
            assertEquals(List.of("WriteString Success", "WriteBytes Fault: Cannot convert " + sentRepr + " to System.Byte."),
                    run.lines(), run::output);
            store.assertNothingStored(prefix + "-bytes");
        } else {
            assertEquals(List.of("WriteString Success", "WriteBytes Success"), run.lines(), run::output);
            store.assertStoredBytes(prefix + "-bytes", ServedStore.BYTES);
        }
    }
}
