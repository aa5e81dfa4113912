package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.StoreLimits;
import org.storeservice.shadow.Wire.Binding;

/** Accept rules with real Store servers: what they can never hide, and a bad file refused at start. */
class AcceptedDifferencesTest {
    @TempDir
    Path directory;

    /**
     * The shadow's value limit is 16 bytes, so a longer write is answered Success by the primary and Error by the
     * shadow: a real difference. Rules that would match every part of it (status, body, headers, any binding) must
     * not hide it.
     */
    @Test
    void aWriteAnsweredSuccessByOneAndErrorByTheOtherIsNeverAccepted() throws Exception {
        Path accept = Files.write(directory.resolve("everything.accept"), List.of(
                "* * status the statuses are ours to ignore", "* * body so are the bodies",
                "* * line-endings and line ends", "* * fault-text and a fault's text",
                "* * header:Content-Type and the type"));
        try (Services services = new Services(directory, StoreLimits.builder().maxValueBytes(16).build(),
                proxy -> proxy.accept(accept))) {
            int requests = 0;
            for (Binding binding : Binding.values()) {
                assertTrue(Wire.send(Wire.writeString(services.endpoint(), binding, binding + "-large",
                        "a value of more than sixteen bytes")).success());
                assertTrue(Wire.send(Wire.writeBytes(services.endpoint(), binding, binding + "-bytes",
                        "more than sixteen bytes of content".getBytes(UTF_8))).success());
                requests += 2;
            }
            services.awaitOutcomes(requests);
            assertEquals(requests, services.count(ShadowResult.DIFFERING), "every one a real difference");
            assertEquals(0, services.count(ShadowResult.ACCEPTED));
            for (String line : Files.readAllLines(services.differences)) {
                assertFalse(line.contains("\"accepted\""), line);
                assertTrue(line.contains("\"causes\":[\"the write answered 200 Success by the primary, 200 Error by the"
                        + " shadow\"]"), line);
            }
        }
    }

    @Test
    void aBadAcceptFileFailsTheStartNamingItsLine() throws Exception {
        Path accept = Files.write(directory.resolve("bad.accept"), List.of("# fine", "httpget * line-endings"));
        ShadowProxy proxy = ShadowProxy.builder().port(0).primary(URI.create("http://127.0.0.1:9/API/Store.asmx"))
                .shadow(URI.create("http://127.0.0.1:9/API/Store.asmx")).accept(accept).build();
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, proxy::start);
        assertTrue(refused.getMessage().startsWith(accept + ":2: a rule is BINDING OPERATION WHAT REASON"),
                refused.getMessage());
    }
}
