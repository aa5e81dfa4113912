package org.storeservice.codec;

import static org.storeservice.codec.Fixture.PATH;
import static org.storeservice.codec.Fixture.assertResponse;
import static org.storeservice.codec.Fixture.headers;
import static org.storeservice.codec.Fixture.post;
import static org.storeservice.codec.Fixture.soap11;
import static org.storeservice.codec.Fixture.soap12;
import static org.storeservice.codec.Fixture.writeString;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A body that is not well-formed XML, in each SOAP version and each way ASMX routes it (wire notes §2–3,
 * {@code SoapServerProtocolHelper.SetResponseErrorCode}). The answer depends on the routing, not on the version:
 * routed by action (1.1 {@code SOAPAction}, 1.2 {@code action} parameter), the body is first read by
 * {@code ReadParameters}, which wraps the XmlException in a Client fault: 400 {@code Client} / {@code Sender}.
 * Routed by the Body's element (no SOAPAction, or 1.2 without {@code action}), {@code GetRequestElement} reads it
 * during routing and the XmlException is not wrapped: 500 {@code Server} / {@code Receiver}, in SOAP 1.2's shape
 * while the envelope's version is unknown.
 */
class SoapMalformedBodyTest {
    private static final List<Map.Entry<String, String>> FAULT_11 = headers("private", "text/xml; charset=utf-8");
    private static final List<Map.Entry<String, String>> FAULT_12 = headers("private", "application/soap+xml; charset=utf-8");
    private static final String DTD = "<!DOCTYPE x [<!ENTITY a \"b\">]>";
    private static final String DTD_MESSAGE = "For security reasons DTD is prohibited in this XML document.";

    private final Fixture fixture = new Fixture();

    @Test
    void dtd() {
        assertAnswers(bytes(DTD + soap11(writeString("k", "v"))), bytes(DTD + soap12(writeString("k", "v"))),
                DTD_MESSAGE, DTD_MESSAGE, DTD_MESSAGE);
    }

    @Test
    void invalidUtf8() {
        assertAnswers(invalidUtf8(soap11(writeString("k", "v\u00e9"))), invalidUtf8(soap12(writeString("k", "v\u00e9"))),
                "Invalid UTF-8 start byte 0xff (at char #242, byte #127)",
                "Invalid UTF-8 start byte 0xff (at char #246, byte #127)",
                "Invalid UTF-8 start byte 0xff (at char #246, byte #127)");
    }

    @Test
    void documentEndingBeforeTheOperation() {
        assertAnswers(bytes(truncated(soap11(writeString("k", "v")), "<WriteString")),
                bytes(truncated(soap12(writeString("k", "v")), "<WriteString")),
                "Unexpected EOF; was expecting a close tag for element &lt;soap:Body&gt; Line 1, position 180.",
                "Unexpected EOF; was expecting a close tag for element &lt;soap12:Body&gt; Line 1, position 184.",
                "Unexpected EOF; was expecting a close tag for element &lt;soap12:Body&gt; Line 1, position 184.");
    }

    @Test
    void documentEndingInsideTheOperationIsA400WhateverTheRouting() {
        // routing by element has found the operation; the rest is read by ReadParameters, which wraps the error
        byte[] soap12 = bytes(truncated(soap12(writeString("k", "v")), "</WriteString>"));
        CodecResponse byElement12 = fixture.handle(post(PATH, soap12).header("Content-Type", "application/soap+xml; charset=utf-8"));
        assertResponse(400, FAULT_12, SoapGoldenTest.fault12("Sender", "Server was unable to read request. ---&gt; "
                + "Unexpected EOF; was expecting a close tag for element &lt;WriteString&gt; Line 1, position 253."), byElement12);
        fixture.assertNothingStored();
    }

    /**
     * Asserts the answers to {@code soap11} sent with a SOAPAction, {@code soap12} sent with an {@code action}
     * parameter, and {@code soap12} sent without one; nothing may be stored.
     */
    private void assertAnswers(byte[] soap11, byte[] soap12, String message11, String message12, String messageByElement) {
        CodecResponse byAction11 = fixture.handle(post(PATH, soap11).header("Content-Type", "text/xml; charset=utf-8")
                .header("SOAPAction", "\"http://tempuri.org/WriteString\""));
        assertResponse(400, FAULT_11, SoapGoldenTest.fault11("Client", "Server was unable to read request. ---&gt; " + message11), byAction11);
        CodecResponse byAction12 = fixture.handle(post(PATH, soap12)
                .header("Content-Type", "application/soap+xml; charset=utf-8; action=\"http://tempuri.org/WriteString\""));
        assertResponse(400, FAULT_12, SoapGoldenTest.fault12("Sender", "Server was unable to read request. ---&gt; " + message12), byAction12);
        CodecResponse byElement12 = fixture.handle(post(PATH, soap12).header("Content-Type", "application/soap+xml; charset=utf-8"));
        assertResponse(500, FAULT_12, SoapGoldenTest.fault12("Receiver", "Server was unable to process request. ---&gt; " + messageByElement), byElement12);
        fixture.assertNothingStored();
    }

    private static String truncated(String document, String before) {
        return document.substring(0, document.indexOf(before));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** {@code text} in UTF-8 with the lead byte of its one two-byte character replaced by 0xFF. */
    private static byte[] invalidUtf8(String text) {
        byte[] bytes = bytes(text);
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == (byte) 0xC3) {
                bytes[i] = (byte) 0xFF;
            }
        }
        return bytes;
    }
}
