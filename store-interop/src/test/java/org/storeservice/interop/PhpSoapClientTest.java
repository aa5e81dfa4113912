package org.storeservice.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * PHP's SoapClient (ext-soap) in WSDL mode, SOAP 1.1 and 1.2, writing text and bytes: the answers it prints
 * and the values stored must be exactly what was sent.
 */
@Timeout(120)
class PhpSoapClientTest {
    static final Path PHP = Path.of("/usr/bin/php");
    static final String INSTALL = "apt-get install php-cli php-soap";

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
    void requirePhpWithSoap() throws Exception {
        ExternalClient.requireExecutables("PHP's SoapClient", INSTALL, PHP);
        ClientRun modules = ClientRun.succeeding(List.of(PHP.toString(), "-m"));
        ExternalClient.require(modules.lines().contains("soap"), "PHP's SoapClient: PHP has no soap extension", INSTALL);
    }

    @ParameterizedTest(name = "SOAP {0}")
    @CsvSource({"1.1, text/xml", "1.2, application/soap+xml"})
    void writesTextAndBytes(String soapVersion, String contentType) throws Exception {
        String prefix = "php-soap" + soapVersion;
        ClientRun run = ClientRun.succeeding(List.of(PHP.toString(), Resources.path("php_soap_client.php"),
                store.wsdl(), soapVersion, prefix,
                ServedStore.hex(ServedStore.TEXT.getBytes(StandardCharsets.UTF_8)),
                ServedStore.hex(ServedStore.BYTES)));

        List<String> lines = run.lines();
        assertEquals(3, lines.size(), run::output);
        assertEquals("WriteString Success", lines.get(0), run::output);
        assertEquals("WriteBytes Success", lines.get(1), run::output);
        // the SOAP version asked for is the one on the wire
        assertTrue(lines.get(2).startsWith("Content-Type: " + contentType + ";"), run::output);

        store.assertStoredText(prefix + "-text", ServedStore.TEXT);
        store.assertStoredBytes(prefix + "-bytes", ServedStore.BYTES);
    }
}
