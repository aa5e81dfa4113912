package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.isNull;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;
import static org.storeservice.codec.Fixture.NS;
import static org.storeservice.codec.Fixture.PATH;
import static org.storeservice.codec.Fixture.SOAP11;
import static org.storeservice.codec.Fixture.post;
import static org.storeservice.codec.Fixture.soap11;
import static org.storeservice.codec.Fixture.soap11Post;
import static org.storeservice.codec.Fixture.soap12;
import static org.storeservice.codec.Fixture.soap12Post;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.storeservice.api.Status;
import org.storeservice.api.Store;

/** ASMX's parameter rules (wire notes §9) and text fidelity, end to end through a real store. */
class SoapParametersTest {
    private final Fixture fixture = new Fixture();

    private CodecResponse writeString(String wrapperContent) {
        return fixture.handle(soap11Post("WriteString", soap11("<WriteString xmlns=\"" + NS + "\">" + wrapperContent + "</WriteString>")));
    }

    private CodecResponse writeBytes(String wrapperContent) {
        return fixture.handle(soap12Post(soap12("<WriteBytes xmlns=\"" + NS + "\">" + wrapperContent + "</WriteBytes>")));
    }

    @Test
    void absentIsNullEmptyAndNilAreEmpty() {
        Store store = mock(Store.class, CALLS_REAL_METHODS);
        when(store.writeString(any(), any())).thenReturn(Status.SUCCESS);
        StoreCodec codec = StoreCodec.builder(store).build();
        String xml = soap11("<WriteString xmlns=\"" + NS + "\"><key/><value xsi:nil=\"true\"/></WriteString>");
        codec.handle(soap11Post("WriteString", xml).build());
        verify(store).writeString("", "");
        codec.handle(soap11Post("WriteString", soap11("<WriteString xmlns=\"" + NS + "\"><value></value></WriteString>")).build());
        verify(store).writeString(isNull(), anyString());
    }

    @Test
    void emptyValueIsStoredAsEmpty() {
        writeString("<key>k</key><value/>");
        assertEquals("", fixture.text("k").orElseThrow());
        writeBytes("<key>b</key><content xsi:nil=\"true\"/>");
        assertArrayEquals(new byte[0], fixture.bytes("b").orElseThrow());
    }

    @Test
    void childOrderIsFreeAndTheFirstDuplicateWins() {
        writeString("<value>v1</value><key>k</key><value>v2</value><key>other</key>");
        assertEquals("v1", fixture.text("k").orElseThrow());
        assertEquals(false, fixture.text("other").isPresent());
        writeBytes("<key>b</key><content>AQ==</content><content>Ag==</content>");
        assertArrayEquals(new byte[] {1}, fixture.bytes("b").orElseThrow());
    }

    @Test
    void unqualifiedAndForeignChildrenAreIgnored() {
        Store store = mock(Store.class, CALLS_REAL_METHODS);
        when(store.writeString(any(), any())).thenReturn(Status.ERROR);
        StoreCodec codec = StoreCodec.builder(store).build();
        codec.handle(soap11Post("WriteString", soap11("<WriteString xmlns=\"" + NS + "\"><key xmlns=\"\">k</key>"
                + "<x:value xmlns:x=\"urn:x\">v</x:value><extra><deep/></extra></WriteString>")).build());
        verify(store).writeString(null, null);
    }

    @Test
    void wrapperInAnotherNamespaceGivesNullParameters() {
        Store store = mock(Store.class, CALLS_REAL_METHODS);
        when(store.writeBytes(any(), any(java.io.InputStream.class))).thenReturn(Status.ERROR);
        StoreCodec codec = StoreCodec.builder(store).build();
        codec.handle(soap11Post("WriteBytes", soap11("<WriteBytes xmlns=\"urn:other\"><key>k</key><content>AQ==</content></WriteBytes>")).build());
        verify(store).writeBytes(null, (java.io.InputStream) null);
    }

    @Test
    void bodyChildrenBeforeTheWrapperAreSkippedWhenRoutedByAction() {
        // ASMX's serializer skips unknown nodes until it finds the wrapper the action named
        fixture.handle(soap11Post("WriteString", soap11("<x/><WriteBytes xmlns=\"" + NS + "\"><key>b</key></WriteBytes>"
                + "<WriteString xmlns=\"" + NS + "\"><key>k</key><value>v</value></WriteString>")));
        assertEquals("v", fixture.text("k").orElseThrow());
        assertEquals(1, fixture.entryCount());
        Store store = mock(Store.class, CALLS_REAL_METHODS);
        when(store.writeString(any(), any())).thenReturn(Status.ERROR);
        StoreCodec codec = StoreCodec.builder(store).build();
        codec.handle(soap11Post("WriteString", soap11("<x/><WriteBytes xmlns=\"" + NS + "\"><key>k</key></WriteBytes>")).build());
        verify(store).writeString(null, null);
    }

    @Test
    void parameterWithChildElementsIs400AndNothingIsStored() {
        CodecResponse response = writeString("<key>k</key><value>a<b/>c</value>");
        assertEquals(400, response.status());
        fixture.assertNothingStored();
    }

    @Test
    void unicodeSpecialCharactersAndLineEndingsRoundTripAsAsmx() {
        String value = "\uD83D\uDE00 \u05E9\u05DC\u05D5\u05DD \u0627\u0644\u0633\u0644\u0627\u0645 <&>\"' tab\tend";
        String escaped = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
        writeString("<key>k\uD800\uDF48</key><value>" + escaped + "\r\nline&#13;\r<![CDATA[<cdata>]]></value>");
        // the parser turns CRLF and lone CR into LF; a character reference &#13; survives
        assertEquals(value + "\nline\r\n<cdata>", fixture.text("k\uD800\uDF48").orElseThrow());
    }

    @Test
    void charsetLessTextXmlIsReadAsUtf8() {
        CodecResponse response = fixture.handle(post(PATH, soap11(Fixture.writeString("k", "\u00e9\u20ac")))
                .header("Content-Type", "text/xml").header("SOAPAction", NS + "WriteString"));
        assertEquals(200, response.status());
        assertEquals("\u00e9\u20ac", fixture.text("k").orElseThrow());
    }

    @Test
    void declaredCharsetIsUsedAndQuotesAreAccepted() {
        Charset latin1 = StandardCharsets.ISO_8859_1;
        byte[] body = soap11(Fixture.writeString("k", "\u00e9")).getBytes(latin1);
        CodecResponse response = fixture.handle(post(PATH, body)
                .header("Content-Type", "text/xml; charset=\"iso-8859-1\"").header("SOAPAction", NS + "WriteString"));
        assertEquals(200, response.status());
        assertEquals("\u00e9", fixture.text("k").orElseThrow());
        byte[] utf16 = soap11(Fixture.writeString("k16", "\u20ac")).getBytes(StandardCharsets.UTF_16LE);
        fixture.handle(post(PATH, utf16).header("Content-Type", "text/xml; charset=utf-16le").header("SOAPAction", NS + "WriteString"));
        assertEquals("\u20ac", fixture.text("k16").orElseThrow());
    }

    @Test
    void headerCharsetWinsOverTheXmlDeclarationAsInAsmx() {
        String xml = "<?xml version=\"1.0\" encoding=\"iso-8859-1\"?>" + soap11(Fixture.writeString("k", "\u20ac"));
        CodecResponse response = fixture.handle(post(PATH, xml).header("Content-Type", "text/xml; charset=utf-8")
                .header("SOAPAction", NS + "WriteString"));
        assertEquals(200, response.status(), Fixture.body(response));
        assertEquals("\u20ac", fixture.text("k").orElseThrow());
    }

    @Test
    void base64WithLineBreaksAndWhitespaceDecodes() {
        byte[] data = new byte[300];
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) i;
        }
        String mime = Base64.getMimeEncoder().encodeToString(data);
        writeBytes("<key>k</key><content>\n " + mime + " \n</content>");
        assertArrayEquals(data, fixture.bytes("k").orElseThrow());
    }

    @Test
    void contentBeforeKeyIsSpooledAndStored() {
        byte[] data = new byte[200_000];
        new java.util.Random(1).nextBytes(data);
        Fixture spooling = new Fixture(CodecLimits.builder().spoolMemoryBytes(1000).build());
        CodecResponse response = spooling.handle(soap12Post(soap12("<WriteBytes xmlns=\"" + NS + "\"><content>"
                + Base64.getEncoder().encodeToString(data) + "</content><key>k</key></WriteBytes>")));
        assertEquals(200, response.status());
        assertArrayEquals(data, spooling.bytes("k").orElseThrow());
    }

    @Test
    void theSpoolFileIsDeletedAfterTheRequestWhetherItSucceedsOrFails() throws IOException {
        byte[] data = new byte[200_000];
        new java.util.Random(2).nextBytes(data);
        byte[] spooled = Arrays.copyOfRange(data, 1000, data.length); // what goes past the memory part
        Fixture spooling = new Fixture(CodecLimits.builder().spoolMemoryBytes(1000).build());
        String wrapper = "<WriteBytes xmlns=\"" + NS + "\"><content>" + Base64.getEncoder().encodeToString(data)
                + "</content><key>k</key></WriteBytes>";

        SpoolFileFinder ok = new SpoolFileFinder(soap12(wrapper), spooled);
        assertEquals(200, spooling.handle(soap12Post("").body(ok)).status());
        assertArrayEquals(data, spooling.bytes("k").orElseThrow());
        assertNotNull(ok.found, "spool file seen during the request");
        assertFalse(Files.exists(ok.found), "spool file left behind: " + ok.found);

        SpoolFileFinder broken = new SpoolFileFinder(soap12(wrapper).replace("</soap12:Envelope>", "</soap12:Envelop>"), spooled);
        assertEquals(400, spooling.handle(soap12Post("").body(broken)).status());
        assertNotNull(broken.found, "spool file seen during the request");
        assertFalse(Files.exists(broken.found), "spool file left behind: " + broken.found);
    }

    /**
     * A request body that, when the parser asks for what follows {@code </content>} (so the content has been
     * spooled but the request is not finished), looks in the temporary directory for the spool file starting
     * with {@code spooled}'s first 64 KiB: other builds may be spooling there too.
     */
    private static final class SpoolFileFinder extends ByteArrayInputStream {
        private static final int PREFIX = 64 * 1024;
        private final byte[] spooled;
        private final int contentEnd;
        Path found;

        SpoolFileFinder(String xml, byte[] spooled) {
            super(xml.getBytes(StandardCharsets.UTF_8));
            this.spooled = spooled;
            this.contentEnd = xml.indexOf("</content>"); // the XML is ASCII: char and byte offsets agree
        }

        @Override
        public synchronized int read(byte[] b, int off, int len) {
            if (pos >= contentEnd && found == null) {
                try (Stream<Path> files = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
                    found = files.filter(f -> f.getFileName().toString().matches("store-content-.*\\.spool"))
                            .filter(this::startsWithSpooled).findFirst().orElse(null);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            // never in one read both the content's end and what follows it
            int limit = pos < contentEnd ? contentEnd - pos : len;
            return super.read(b, off, Math.min(Math.min(len, limit), 8192));
        }

        private boolean startsWithSpooled(Path file) {
            try (InputStream in = Files.newInputStream(file)) {
                return Arrays.equals(in.readNBytes(PREFIX), Arrays.copyOf(spooled, PREFIX));
            } catch (IOException e) {
                return false; // another build's file, gone meanwhile
            }
        }
    }

    @Test
    void contentWithoutKeyIsAnErrorResult() {
        CodecResponse response = writeBytes("<content>AQ==</content>");
        assertEquals(200, response.status());
        fixture.assertNothingStored();
    }

    @Test
    void envelopeChildrenBeforeTheBodyAreSkipped() {
        fixture.handle(soap11Post("WriteString", "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<!-- hi -->\n<soap:Envelope xmlns:soap=\""
                + SOAP11 + "\"><x:Other xmlns:x=\"urn:x\"><y/></x:Other><soap:Body>" + Fixture.writeString("k", "v")
                + "<trailing/></soap:Body><after/></soap:Envelope>\n"));
        assertEquals("v", fixture.text("k").orElseThrow());
    }

    @Test
    void contentAfterTheEnvelopeIsRejectedAndNothingIsStored() {
        CodecResponse response = fixture.handle(soap11Post("WriteBytes", soap11(Fixture.writeBytes("k", "AQ==")) + "<second/>"));
        assertEquals(400, response.status());
        fixture.assertNothingStored();
        assertNull(fixture.entry("k").orElse(null));
    }
}
