package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.storeservice.codec.Fixture.NS;
import static org.storeservice.codec.Fixture.soap11;
import static org.storeservice.codec.Fixture.soap11Post;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Random;
import java.util.stream.Stream;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import org.codehaus.stax2.XMLStreamReader2;
import org.codehaus.stax2.typed.TypedXMLStreamException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.storeservice.codec.wire.XmlReaders;

/**
 * What {@code <content>} accepts and rejects, on both paths (streamed: key first; spooled: content first). The
 * rules are .NET's ({@code XmlSerializationReader.ReadByteArray} → {@code System.Xml.Base64Decoder}): white space
 * anywhere, the bits of a partial unit dropped (no padding needed), the first {@code =} ending the data with only
 * {@code =} and white space after it; character references and CDATA sections are text, comments and processing
 * instructions are ignored (even inside a unit), an element is an error. {@link #sameAsDotNetsBase64Decoder} keeps
 * a plain transliteration of .NET's decoder as the oracle over generated inputs.
 */
class Base64ContentTest {
    private static final String BASE64_FAULT = "Server was unable to read request. ---&gt; The content is not valid base64";

    /** {@code content}, expected bytes in hex or null for a base64 fault. */
    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("", ""),
                Arguments.of("<!--x-->", ""),
                Arguments.of("   ", ""),
                Arguments.of("QUJD", "414243"),
                Arguments.of("QUI=", "4142"),
                Arguments.of("QQ==", "41"),
                Arguments.of("QUJD\n QUJD", "414243414243"),
                Arguments.of("\tQUJD\r\n", "414243"),
                Arguments.of("QQ==QUJD", null), // the first '=' ends the data
                Arguments.of("QQ==\n", "41"),
                Arguments.of("&#81;UJD", "414243"),
                Arguments.of("QU&#x4A;D", "414243"),
                Arguments.of("QUJD&#32;QUJD", "414243414243"),
                Arguments.of("QU<![CDATA[JD]]>", "414243"),
                Arguments.of("<![CDATA[QUJD]]>", "414243"),
                Arguments.of("QUJD<![CDATA[ ]]>QUJD", "414243414243"),
                Arguments.of("QU<!--c-->JD", "414243"),
                Arguments.of("QU<?pi x?>JD", "414243"),
                Arguments.of("Q<!--c-->U<![CDATA[J]]>D", "414243"),
                Arguments.of("QQ", "41"), // a partial unit's bits make what bytes they can, no padding needed
                Arguments.of("QQ=", "41"),
                Arguments.of("QUJ", "4142"),
                Arguments.of("Q", ""), // six bits: no byte
                Arguments.of("QQ==QQ", null),
                Arguments.of(" Q U J D", "414243"), // white space anywhere
                Arguments.of("QU\nJD", "414243"),
                Arguments.of("QU&#32;JD", "414243"),
                Arguments.of("Q===", ""), // padding anywhere ends the data
                Arguments.of("QU=D", null), // only '=' and white space after it
                Arguments.of("QQ=\n=", "41"),
                Arguments.of("====", ""),
                Arguments.of("QUJD=", "414243"),
                Arguments.of("&amp;", null),
                Arguments.of("&lt;", null),
                Arguments.of("a*b!", null),
                Arguments.of("QUJ\u00e9", null),
                Arguments.of("QUJD\u00a0", null),
                Arguments.of("QUJD\u0085", null),
                Arguments.of("-_-_", null), // URL-safe alphabet is not accepted
                Arguments.of("QU<x/>JD", null)); // an element inside the content
    }

    @ParameterizedTest
    @MethodSource("cases")
    void streamedContent(String content, String expectedHex) {
        assertOutcome("<key>k</key><content>" + content + "</content>", expectedHex);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void spooledContent(String content, String expectedHex) {
        assertOutcome("<content>" + content + "</content><key>k</key>", expectedHex);
    }

    /** The same rules over SOAP 1.2 (the HTTP bindings carry bytes as numbers, not base64). */
    @ParameterizedTest
    @MethodSource("cases")
    void soap12Content(String content, String expectedHex) {
        Fixture fixture = new Fixture();
        CodecResponse response = fixture.handle(Fixture.soap12Post(Fixture.soap12("<WriteBytes xmlns=\"" + NS + "\">"
                + "<key>k</key><content>" + content + "</content></WriteBytes>")));
        assertOutcome(fixture, response, expectedHex);
    }

    private static void assertOutcome(String wrapperContent, String expectedHex) {
        Fixture fixture = new Fixture();
        CodecResponse response = fixture.handle(soap11Post("WriteBytes", soap11("<WriteBytes xmlns=\"" + NS + "\">"
                + wrapperContent + "</WriteBytes>")));
        assertOutcome(fixture, response, expectedHex);
    }

    private static void assertOutcome(Fixture fixture, CodecResponse response, String expectedHex) {
        if (expectedHex != null) {
            assertEquals(200, response.status(), Fixture.body(response));
            assertEquals(expectedHex, HexFormat.of().formatHex(fixture.bytes("k").orElseThrow()));
        } else {
            assertEquals(400, response.status());
            // SOAP 1.1: <faultstring>; SOAP 1.2: <soap:Text xml:lang="en">
            assertTrue(Fixture.body(response).contains(">" + BASE64_FAULT), Fixture.body(response));
            fixture.assertNothingStored();
        }
    }

    /** Says which rule and where: the start of the text (or tag) in which the rule was broken. */
    @Test
    void theFaultSaysWhatIsWrongAndWhere() {
        assertFault("a*b!", "Illegal character '*' (code 0x2a) in base64 content. Line 1, position 230.");
        assertFault("QU=D", "Illegal character 'D' (code 0x44) after the padding '=' that ends base64 content: only '='"
                + " and white space may follow it. Line 1, position 230.");
        assertFault("QQ==\nQUJD", "Illegal character 'Q' (code 0x51) after the padding '=' that ends base64 content:"
                + " only '=' and white space may follow it. Line 1, position 230.");
        assertFault("QU<x/>JD", "Element content can not contain the child element 'x'. Line 1, position 232.");
    }

    private static void assertFault(String content, String reason) {
        CodecResponse response = new Fixture().handle(soap11Post("WriteBytes", soap11("<WriteBytes xmlns=\"" + NS
                + "\"><content>" + content + "</content><key>k</key></WriteBytes>")));
        assertEquals(400, response.status());
        assertTrue(Fixture.body(response).contains("<faultstring>" + BASE64_FAULT + ": " + reason + "</faultstring>"),
                Fixture.body(response));
    }

    /** Comments and processing instructions inside the content are bounded as everywhere else in the body. */
    @Test
    void commentsAndProcessingInstructionsInsideTheContentAreBounded() {
        for (String wrapper : new String[] {"<key>k</key><content>QU%sJD</content>", "<content>QU%sJD</content><key>k</key>"}) {
            Fixture fixture = new Fixture(CodecLimits.builder().maxTextLength(10).build());
            CodecResponse response = fixture.handle(soap11Post("WriteBytes", soap11("<WriteBytes xmlns=\"" + NS + "\">"
                    + String.format(wrapper, "<!--" + "x".repeat(11) + "-->") + "</WriteBytes>")));
            assertEquals(400, response.status(), Fixture.body(response));
            assertTrue(Fixture.body(response).contains("A comment is longer than 10 characters."), Fixture.body(response));
            fixture.assertNothingStored();
            response = fixture.handle(soap11Post("WriteBytes", soap11("<WriteBytes xmlns=\"" + NS + "\">"
                    + String.format(wrapper, "<?p " + "x".repeat(11) + "?>") + "</WriteBytes>")));
            assertEquals(400, response.status(), Fixture.body(response));
            assertTrue(Fixture.body(response).contains("A processing instruction is longer than 10 characters."),
                    Fixture.body(response));
            fixture.assertNothingStored();
            response = fixture.handle(soap11Post("WriteBytes", soap11("<WriteBytes xmlns=\"" + NS + "\">"
                    + String.format(wrapper, "<!--" + "x".repeat(10) + "-->") + "</WriteBytes>")));
            assertEquals(200, response.status(), Fixture.body(response));
        }
    }

    @Test
    void anUndeclaredEntityIsAnXmlErrorNotABase64One() {
        Fixture fixture = new Fixture();
        CodecResponse response = fixture.handle(soap11Post("WriteBytes", soap11(Fixture.writeBytes("k", "QU&foo;JD"))));
        assertEquals(400, response.status());
        assertTrue(Fixture.body(response).contains("Undeclared general entity \"foo\""), Fixture.body(response));
        fixture.assertNothingStored();
    }

    /**
     * Generated contents, small and large (across the parser's buffers, the body delivered in random chunks),
     * valid and not: the codec stores exactly what .NET's base64 decoder decodes ({@link #oracle}), and rejects with
     * a base64 fault exactly what it rejects.
     */
    @Test
    void sameAsDotNetsBase64Decoder() throws Exception {
        int accepted = 0;
        int cases = 1500;
        for (int i = 0; i < cases; i++) {
            Random random = new Random(i);
            String content = generate(random, i % 50 == 0 ? 40_000 : 60);
            byte[] expected = oracle(content, 1 + random.nextInt(i % 2 == 0 ? 7 : 9000));
            boolean keyFirst = random.nextBoolean();
            String wrapper = keyFirst ? "<key>k</key><content>" + content + "</content>"
                    : "<content>" + content + "</content><key>k</key>";
            byte[] body = soap11("<WriteBytes xmlns=\"" + NS + "\">" + wrapper + "</WriteBytes>").getBytes(StandardCharsets.UTF_8);
            Fixture fixture = new Fixture(CodecLimits.builder().spoolMemoryBytes(1 + random.nextInt(5000)).build());
            CodecResponse response = fixture.handle(soap11Post("WriteBytes", "")
                    .body(Fixture.chunked(body, 1 + random.nextInt(10_000))));
            String shown = "case " + i + ": " + (content.length() > 200 ? content.substring(0, 200) + "..." : content);
            if (expected != null) {
                assertEquals(200, response.status(), shown + " -> " + Fixture.body(response));
                assertArrayEquals(expected, fixture.bytes("k").orElseThrow(), shown);
                accepted++;
            } else {
                assertEquals(400, response.status(), shown);
                assertTrue(Fixture.body(response).contains("<faultstring>" + BASE64_FAULT), shown + " -> " + Fixture.body(response));
                fixture.assertNothingStored();
            }
        }
        // the generator must exercise both sides
        // (an '=' of the noise ends the data, so most long generated contents are refused)
        assertTrue(accepted > cases / 6 && accepted < cases * 3 / 4, accepted + " of " + cases + " accepted");
    }

    /**
     * A store that reads the content in parts of 1 to 4 bytes ({@code read()} among them) gets every byte, on
     * the parser's path and the fast path: a part shorter than a unit's pending bytes once lost them.
     */
    @Test
    void aStoreReadingInTinyPartsGetsEveryByte() throws Exception {
        int compared = 0;
        for (int i = 0; i < 200; i++) {
            Random random = new Random(i);
            String content = generate(random, i % 10 == 0 ? 40_000 : 60);
            byte[] expected = oracle(content, 4096);
            if (expected == null) {
                continue;
            }
            ByteArrayOutputStream read = new ByteArrayOutputStream();
            ContentReadingStore store = new ContentReadingStore(in -> {
                byte[] part = new byte[4];
                while (true) {
                    int size = random.nextInt(5);
                    int n = size == 0 ? in.read() : in.read(part, 0, size);
                    if (n < 0) {
                        return;
                    }
                    if (size == 0) {
                        read.write(n);
                    } else {
                        read.write(part, 0, n);
                    }
                }
            });
            byte[] body = soap11("<WriteBytes xmlns=\"" + NS + "\"><key>k</key><content>" + content
                    + "</content></WriteBytes>").getBytes(StandardCharsets.UTF_8);
            CodecResponse response = StoreCodec.builder(store).build()
                    .handle(soap11Post("WriteBytes", "").body(new ByteArrayInputStream(body)).build());
            assertEquals(200, response.status(), "case " + i + ": " + Fixture.body(response));
            assertArrayEquals(expected, read.toByteArray(), "case " + i);
            compared++;
        }
        assertTrue(compared > 30, compared + " compared");
    }

    /**
     * .NET's decoding of {@code <content>}, written from {@code System.Xml.Base64Decoder.Decode} as plainly as possible:
     * the element's text (Woodstox joins text, CDATA and references, and drops comments and processing
     * instructions, as .NET's reader does), then white space skipped, six bits per char, a byte per eight, the first
     * {@code =} ending the data with only {@code =} and white space after it. The bytes, or null for an error.
     */
    private static byte[] oracle(String content, int bufferSize) throws XMLStreamException {
        String xml = "<r><content>" + content + "</content></r>";
        XMLStreamReader2 reader = new XmlReaders(CodecLimits.defaults())
                .open(new ByteArrayInputStream(xml.getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8);
        while (reader.next() != XMLStreamConstants.START_ELEMENT || !"content".equals(reader.getLocalName())) {
            // to <content>
        }
        String text;
        try {
            text = reader.getElementText();
        } catch (XMLStreamException e) {
            return null; // an element inside the content
        }
        String alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int bits = 0;
        int filled = 0;
        int i = 0;
        for (; i < text.length() && text.charAt(i) != '='; i++) {
            char ch = text.charAt(i);
            if (" \t\r\n".indexOf(ch) >= 0) {
                continue;
            }
            int digit = alphabet.indexOf(ch);
            if (digit < 0) {
                return null;
            }
            bits = bits << 6 | digit;
            filled += 6;
            if (filled >= 8) {
                filled -= 8;
                out.write(bits >> filled);
            }
        }
        for (; i < text.length(); i++) {
            if ("= \t\r\n".indexOf(text.charAt(i)) < 0) {
                return null;
            }
        }
        return out.toByteArray();
    }

    private static final String[] NOISE = {" ", "\n", "\r\n", "\t", "=", "==", "Q", "QU", "QUJ", "*", "\u00e9", "&amp;",
        "&#x41;", "&#65;", "&#32;", "&#10;", "<!--c-->", "<?p d?>", "<![CDATA[QU]]>", "<![CDATA[ ]]>", "<![CDATA[]]>",
        "\u00a0", "-", "_", "QQ==", "QUI=", "<x/>"};

    /** Mostly valid units and MIME-wrapped runs, with noise that is sometimes legal (between units) and sometimes not. */
    private static String generate(Random random, int approximateLength) {
        StringBuilder s = new StringBuilder();
        Base64.Encoder[] encoders = {Base64.getEncoder(), Base64.getMimeEncoder()};
        while (s.length() < approximateLength) {
            int pick = random.nextInt(10);
            if (pick < 6) {
                byte[] data = new byte[random.nextInt(pick == 0 ? 3000 : 10)];
                random.nextBytes(data);
                String units = encoders[random.nextInt(2)].encodeToString(data);
                if (!units.isEmpty() && random.nextInt(4) == 0) {
                    // inside a unit: markup that is not text, text that is markup, a character reference
                    int at = random.nextInt(units.length());
                    String[] inside = {"<!--c-->" + units.charAt(at), "<?p d?>" + units.charAt(at),
                        "<![CDATA[" + units.charAt(at) + "]]>", "&#" + (int) units.charAt(at) + ";"};
                    units = units.substring(0, at) + inside[random.nextInt(inside.length)] + units.substring(at + 1);
                }
                s.append(units);
            } else if (random.nextInt(approximateLength) > 20) { // noise about once per 60 chars, whatever the length
                // separators that are legal between units, or (rarely) noise anywhere
                String[] legal = {" ", "\n", "\r\n", "<!--c-->", "<?p d?>", "<![CDATA[ ]]>", "&#10;"};
                s.append(legal[random.nextInt(legal.length)]);
            } else {
                s.append(NOISE[random.nextInt(NOISE.length)]);
            }
        }
        return s.toString();
    }
}
