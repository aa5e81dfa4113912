package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.storeservice.codec.Fixture.NS;
import static org.storeservice.codec.Fixture.PATH;
import static org.storeservice.codec.Fixture.post;
import static org.storeservice.codec.Fixture.soap11;
import static org.storeservice.codec.Fixture.soap12;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Where .NET's readers are stricter than the XML they read, Store refuses as ASMX does, and stores nothing: a string
 * parameter holding a comment or a processing instruction ({@code XmlReader.ReadElementString}, which the
 * serializer reads {@code string} members with), and a document declaring a version other than 1.0
 * ({@code XmlTextReader}). CDATA and character references in a string stay text, as in .NET.
 */
class DotNetReaderStrictnessTest {
    private final Fixture fixture = new Fixture();

    @ParameterizedTest
    @ValueSource(strings = {"<key>k</key><value>a<!--c-->b</value>", "<key>k<!--c--></key><value>v</value>",
        "<key>k</key><value><!---->v</value>", "<key>k</key>\n  <value>\r\n a<!--c-->b</value>"})
    void aCommentInAStringParameterIsRefused(String parameters) {
        assertRefused(parameters, "Unexpected node type Comment. ReadElementString method can only be called on elements"
                + " with simple or empty content.", "<!--");
    }

    @ParameterizedTest
    @ValueSource(strings = {"<key>k</key><value>a<?p d?>b</value>", "<key><?p?>k</key><value>v</value>",
        "<key>k</key><value>\n\n<?p?>v</value>"})
    void aProcessingInstructionInAStringParameterIsRefused(String parameters) {
        assertRefused(parameters, "Unexpected node type ProcessingInstruction. ReadElementString method can only be"
                + " called on elements with simple or empty content.", "<?");
    }

    /**
     * .NET's position of the node {@code markup} opens, in {@code body}: XmlTextReader's LinePosition is a node's
     * first character after its markup (the documented example: {@code <root>} is at position 2), lines counted at
     * each LF, a CR LF being one break.
     */
    private static String dotNetPosition(String body, String markup) {
        int at = body.indexOf(markup);
        int line = 1 + (int) body.substring(0, at).chars().filter(c -> c == '\n').count();
        int column = at - body.lastIndexOf('\n', at) + markup.length();
        return " Line " + line + ", position " + column + ".";
    }

    @Test
    void cdataAndReferencesInAStringParameterAreText() {
        CodecResponse response = fixture.handle(Fixture.soap11Post("WriteString", soap11("<WriteString xmlns=\"" + NS
                + "\"><key>k</key><value>a<![CDATA[<b>]]>&#99;&amp;</value></WriteString>")));
        assertEquals(200, response.status(), Fixture.body(response));
        assertEquals("a<b>c&", fixture.text("k").orElseThrow());
    }

    @Test
    void xmlOnePointOneIsRefusedAsDotNetRefusesIt() {
        String declaration = "<?xml version=\"1.1\" encoding=\"utf-8\"?>";
        String body11 = soap11("<WriteString xmlns=\"" + NS + "\"><key>k</key><value>v</value></WriteString>")
                .replaceFirst("<\\?xml[^>]*\\?>", "");
        String body12 = soap12("<WriteString xmlns=\"" + NS + "\"><key>k</key><value>v</value></WriteString>")
                .replaceFirst("<\\?xml[^>]*\\?>", "");
        String message = "Version number '1.1' is invalid. Line 1, position 16.";

        CodecResponse byAction11 = fixture.handle(post(PATH, (declaration + body11).getBytes(StandardCharsets.UTF_8))
                .header("Content-Type", "text/xml; charset=utf-8").header("SOAPAction", "\"" + NS + "WriteString\""));
        assertEquals(400, byAction11.status(), Fixture.body(byAction11));
        assertTrue(Fixture.body(byAction11).contains("<faultcode>soap:Client</faultcode><faultstring>Server was unable to"
                + " read request. ---&gt; " + message + "</faultstring>"), Fixture.body(byAction11));

        CodecResponse byElement12 = fixture.handle(post(PATH, (declaration + body12).getBytes(StandardCharsets.UTF_8))
                .header("Content-Type", "application/soap+xml; charset=utf-8"));
        assertEquals(500, byElement12.status(), Fixture.body(byElement12));
        assertTrue(Fixture.body(byElement12).contains("Server was unable to process request. ---&gt; " + message),
                Fixture.body(byElement12));
        fixture.assertNothingStored();

        CodecResponse oneZero = fixture.handle(post(PATH, ("<?xml version=\"1.0\" encoding=\"utf-8\"?>" + body11)
                .getBytes(StandardCharsets.UTF_8)).header("Content-Type", "text/xml; charset=utf-8")
                .header("SOAPAction", "\"" + NS + "WriteString\""));
        assertEquals(200, oneZero.status(), Fixture.body(oneZero));
    }

    /**
     * .NET says where the version's value starts: the position of its first character in the declaration's line,
     * after any byte-order mark, lines broken at CR LF, CR or LF (golden values counted by hand from that rule).
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("declarations")
    void theVersionsPositionIsDotNets(String layout, String charset, boolean bom, String declaration, String position) {
        String xml = declaration + soap11("<WriteString xmlns=\"" + NS + "\"><key>k</key><value>v</value></WriteString>")
                        .replaceFirst("<\\?xml[^>]*\\?>", "");
        byte[] text = xml.getBytes(java.nio.charset.Charset.forName(charset));
        byte[] mark = !bom ? new byte[0] : charset.equals("UTF-8") ? new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}
                : new byte[] {(byte) 0xFF, (byte) 0xFE};
        byte[] body = new byte[mark.length + text.length];
        System.arraycopy(mark, 0, body, 0, mark.length);
        System.arraycopy(text, 0, body, mark.length, text.length);
        String label = charset.equals("UTF-8") ? "utf-8" : "utf-16";

        CodecResponse answer = fixture.handle(post(PATH, body).header("Content-Type", "text/xml; charset=" + label)
                .header("SOAPAction", "\"" + NS + "WriteString\""));

        assertEquals(400, answer.status(), Fixture.body(answer));
        assertTrue(Fixture.body(answer).contains("<faultstring>Server was unable to read request. ---&gt; Version number"
                + " '1.1' is invalid. " + position + "</faultstring>"), Fixture.body(answer));
        fixture.assertNothingStored();
    }

    static Stream<Arguments> declarations() {
        return Stream.of(
                Arguments.of("plain, UTF-8", "UTF-8", false, "<?xml version=\"1.1\" encoding=\"utf-8\"?>",
                        "Line 1, position 16."),
                Arguments.of("spaces and single quotes", "UTF-8", false, "<?xml  version = '1.1'?>", "Line 1, position 19."),
                Arguments.of("CR LF before version", "UTF-8", false, "<?xml\r\n  version=\"1.1\"?>", "Line 2, position 12."),
                Arguments.of("LF before version", "UTF-8", false, "<?xml\nversion=\"1.1\"?>", "Line 2, position 10."),
                Arguments.of("UTF-8 with its BOM", "UTF-8", true, "<?xml version=\"1.1\"?>", "Line 1, position 16."),
                Arguments.of("UTF-16 with its BOM", "UTF-16LE", true, "<?xml version=\"1.1\" encoding=\"utf-16\"?>",
                        "Line 1, position 16."),
                Arguments.of("UTF-16 without a BOM", "UTF-16LE", false, "<?xml version=\"1.1\" encoding=\"utf-16\"?>",
                        "Line 1, position 16."));
    }

    private void assertRefused(String parameters, String message, String markup) {
        String body11 = soap11("<WriteString xmlns=\"" + NS + "\">" + parameters + "</WriteString>");
        CodecResponse soap11 = fixture.handle(Fixture.soap11Post("WriteString", body11));
        assertEquals(400, soap11.status(), Fixture.body(soap11));
        assertTrue(Fixture.body(soap11).contains("<faultcode>soap:Client</faultcode><faultstring>Server was unable to"
                + " read request. ---&gt; " + message + dotNetPosition(body11, markup) + "</faultstring>"),
                Fixture.body(soap11));
        String body12 = soap12("<WriteString xmlns=\"" + NS + "\">" + parameters + "</WriteString>");
        CodecResponse soap12 = fixture.handle(post(PATH, body12.getBytes(StandardCharsets.UTF_8))
                .header("Content-Type", "application/soap+xml; charset=utf-8; action=\"" + NS + "WriteString\""));
        assertEquals(400, soap12.status(), Fixture.body(soap12));
        assertTrue(Fixture.body(soap12).contains("Server was unable to read request. ---&gt; " + message
                + dotNetPosition(body12, markup) + "</"), Fixture.body(soap12));
        fixture.assertNothingStored();
    }
}
