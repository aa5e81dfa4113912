package org.storeservice.shadow;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.codec.Binding;

class AcceptRulesTest {
    private static final Classification GET_WRITE = new Classification(Binding.HTTP_GET, "WriteString", "k");
    private static final Difference LINE_ENDS = new Difference("line-endings", "body: line ends differ", "...");

    @TempDir
    Path directory;

    private AcceptRules rules(String... lines) throws Exception {
        return AcceptRules.read(Files.write(directory.resolve("rules.accept"), List.of(lines)));
    }

    @Test
    void aDifferenceEveryPartOfWhichARuleMatchesIsAcceptedWithItsReasons() throws Exception {
        Path file = directory.resolve("rules.accept");
        AcceptRules rules = rules("# Mono's ASMX", "", "httpget * line-endings Mono writes LF   after the declaration",
                "* WriteString header:content-type  a reason");
        assertEquals(List.of(file + ":3: Mono writes LF   after the declaration"), rules.accepted(GET_WRITE, List.of(LINE_ENDS)));
        Difference type = new Difference("header:Content-Type", "Content-Type: ...", "...");
        assertEquals(List.of(file + ":3: Mono writes LF   after the declaration", file + ":4: a reason"),
                rules.accepted(GET_WRITE, List.of(LINE_ENDS, type)));
        assertNull(rules.accepted(new Classification(Binding.HTTP_POST, "WriteString", "k"), List.of(LINE_ENDS)),
                "another binding");
        assertNull(rules.accepted(GET_WRITE, List.of(LINE_ENDS, new Difference("status", "status: ...", "..."))),
                "one part matched by no rule: not accepted");
    }

    @Test
    void aWritesOutcomeIsNeverAccepted() throws Exception {
        AcceptRules rules = rules("* * status anything", "* * body anything", "* * line-endings anything",
                "* * fault-text anything", "* * header:Content-Type anything");
        assertNull(rules.accepted(GET_WRITE, List.of(new Difference(Difference.OUTCOME, "the write answered ...", "..."))));
        IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                () -> rules("* * outcome we do not care"));
        assertTrue(refused.getMessage().contains(":1: unknown difference outcome"), refused.getMessage());
    }

    @Test
    void aBadFileIsRefusedNamingTheLine() {
        String[][] bad = {
            {"httpget * line-endings", ":1: a rule is BINDING OPERATION WHAT REASON, the reason required"},
            {"# ok", "soap13 * body why", ":2: unknown binding soap13"},
            {"soap11 Write body why", ":1: unknown operation Write"},
            {"soap11 * header:Server why", ":1: unknown difference header:Server"},
            {"soap11 * * why", ":1: unknown difference *"},
        };
        for (String[] lines : bad) {
            String expected = lines[lines.length - 1];
            String[] rules = java.util.Arrays.copyOf(lines, lines.length - 1);
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class, () -> rules(rules));
            assertTrue(refused.getMessage().contains("rules.accept" + expected), refused.getMessage());
        }
    }

    /**
     * The .NET rules hold for .NET: they accept a fault's text, but not Mono's line ends or any WSDL difference, which
     * only the Mono file (read after them) accepts.
     */
    @Test
    void theShippedAsmxRulesKeepMonosApart() throws Exception {
        Path known = Path.of("..", "deploy", "shadow", "asmx-known.accept");
        Path mono = Path.of("..", "deploy", "shadow", "asmx-mono.accept");
        AcceptRules dotNet = AcceptRules.read(List.of(known));
        AcceptRules onMono = AcceptRules.read(List.of(known, mono));
        assertTrue(dotNet.size() >= 5 && onMono.size() > dotNet.size(), dotNet + ", " + onMono);
        Classification wsdl = new Classification(Binding.METADATA, "wsdl", null);
        Difference body = new Difference("body", "body differs", "...");
        Difference faultText = new Difference("fault-text", "body: the fault's text differs", "...");
        assertNull(dotNet.accepted(wsdl, List.of(body)), "any WSDL difference is .NET's too");
        assertNull(dotNet.accepted(GET_WRITE, List.of(LINE_ENDS)), "Mono's line ends are not .NET's");
        assertEquals(1, dotNet.accepted(new Classification(Binding.SOAP11, "WriteString", "k"), List.of(faultText)).size());
        assertTrue(onMono.accepted(wsdl, List.of(body)).get(0).startsWith(mono + ":"));
        assertTrue(onMono.accepted(GET_WRITE, List.of(LINE_ENDS)).get(0).startsWith(mono + ":"));
    }
}
