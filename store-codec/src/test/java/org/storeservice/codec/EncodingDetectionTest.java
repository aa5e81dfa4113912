package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.storeservice.codec.Fixture.NS;
import static org.storeservice.codec.Fixture.PATH;
import static org.storeservice.codec.Fixture.post;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * How a SOAP body with a charset in its Content-Type is decoded, as ASMX decodes it: through a {@code StreamReader} in
 * that charset that detects a byte-order mark ({@code SoapServerProtocol.GetReaderForMessage}), so a BOM's encoding
 * wins over the label, and the XML declaration's encoding is ignored. Every combination of BOM, label and
 * declaration, over SOAP 1.1 and 1.2, WriteString and WriteBytes.
 */
class EncodingDetectionTest {
    private static final String VALUE = "h\u00e9llo \u4e2d \uD83D\uDE00";
    private static final byte[] CONTENT = {0, 1, (byte) 0xFE, (byte) 0xFF, 65};

    /** A BOM: its name, its bytes, and the encoding the body is then written in. */
    private record Mark(String name, byte[] bytes, Charset encoding) {
    }

    private static final List<Mark> MARKS = List.of(
            new Mark("no BOM", new byte[0], null),
            new Mark("UTF-8 BOM", new byte[] {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF}, StandardCharsets.UTF_8),
            new Mark("UTF-16LE BOM", new byte[] {(byte) 0xFF, (byte) 0xFE}, StandardCharsets.UTF_16LE),
            new Mark("UTF-16BE BOM", new byte[] {(byte) 0xFE, (byte) 0xFF}, StandardCharsets.UTF_16BE),
            new Mark("UTF-32LE BOM", new byte[] {(byte) 0xFF, (byte) 0xFE, 0, 0}, Charset.forName("UTF-32LE")),
            new Mark("UTF-32BE BOM", new byte[] {0, 0, (byte) 0xFE, (byte) 0xFF}, Charset.forName("UTF-32BE")));
    /** Labels, with the encoding a body without a BOM is written in. */
    private static final List<String> LABELS = List.of("utf-8", "utf-16", "utf-16le", "utf-16be", "iso-8859-1");
    private static final List<String> DECLARATIONS = List.of("", "<?xml version=\"1.0\"?>",
            "<?xml version=\"1.0\" encoding=\"utf-8\"?>", "<?xml version=\"1.0\" encoding=\"utf-16\"?>",
            "<?xml version=\"1.0\" encoding=\"iso-8859-1\"?>");

    static Stream<Arguments> combinations() {
        List<Arguments> all = new ArrayList<>();
        for (Mark mark : MARKS) {
            for (String label : LABELS) {
                for (String declaration : DECLARATIONS) {
                    all.add(Arguments.of(mark.name(), label, declaration));
                }
            }
        }
        return all.stream();
    }

    @ParameterizedTest(name = "{0}, charset={1}, {2}")
    @MethodSource("combinations")
    void theBomWinsOverTheLabelAndTheDeclarationIsIgnored(String markName, String label, String declaration) {
        Mark mark = MARKS.stream().filter(m -> m.name().equals(markName)).findFirst().orElseThrow();
        Charset written = mark.encoding() != null ? mark.encoding() : labelled(label);
        // ISO-8859-1 cannot carry the value's Chinese and emoji: a plainer value, still non-ASCII.
        String value = written.equals(StandardCharsets.ISO_8859_1) ? "h\u00e9llo" : VALUE;
        for (boolean soap12 : new boolean[] {false, true}) {
            Fixture fixture = new Fixture();
            String wrapper = "<WriteString xmlns=\"" + NS + "\"><key>k</key><value>" + value + "</value></WriteString>";
            CodecResponse response = fixture.handle(request(soap12, label, "WriteString",
                    body(mark, written, declaration, soap12, wrapper)));
            assertEquals(200, response.status(), markName + " " + label + " " + declaration + ": " + Fixture.body(response));
            assertEquals(value, fixture.text("k").orElseThrow());

            String bytesWrapper = "<WriteBytes xmlns=\"" + NS + "\"><key>b</key><content>"
                    + Base64.getEncoder().encodeToString(CONTENT) + "</content></WriteBytes>";
            response = fixture.handle(request(soap12, label, "WriteBytes", body(mark, written, declaration, soap12, bytesWrapper)));
            assertEquals(200, response.status(), Fixture.body(response));
            assertArrayEquals(CONTENT, fixture.bytes("b").orElseThrow(), HexFormat.of().formatHex(CONTENT));
        }
    }

    /** A UTF-16 body with its BOM, labelled utf-8 (what a misconfigured client sends): read as UTF-16, as ASMX reads it. */
    @Test
    void aUtf16BodyWithItsBomLabelledUtf8IsRead() {
        Fixture fixture = new Fixture();
        byte[] body = body(MARKS.get(2), StandardCharsets.UTF_16LE, "<?xml version=\"1.0\" encoding=\"utf-8\"?>", false,
                "<WriteString xmlns=\"" + NS + "\"><key>k</key><value>" + VALUE + "</value></WriteString>");
        CodecResponse response = fixture.handle(request(false, "utf-8", "WriteString", body));
        assertEquals(200, response.status(), Fixture.body(response));
        assertEquals(VALUE, fixture.text("k").orElseThrow());
    }

    private static Charset labelled(String label) {
        // a "utf-16" label without a BOM: .NET's Encoding.Unicode, little-endian
        return label.equals("utf-16") ? StandardCharsets.UTF_16LE : Charset.forName(label);
    }

    private static byte[] body(Mark mark, Charset written, String declaration, boolean soap12, String wrapper) {
        String envelope = (soap12 ? Fixture.soap12(wrapper) : Fixture.soap11(wrapper)).replaceFirst("<\\?xml[^>]*\\?>", "");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(mark.bytes());
        out.writeBytes((declaration + envelope).getBytes(written));
        return out.toByteArray();
    }

    private static CodecRequest.Builder request(boolean soap12, String label, String operation, byte[] body) {
        return soap12
                ? post(PATH, body).header("Content-Type", "application/soap+xml; charset=" + label + "; action=\"" + NS
                        + operation + "\"")
                : post(PATH, body).header("Content-Type", "text/xml; charset=" + label)
                        .header("SOAPAction", "\"" + NS + operation + "\"");
    }
}
