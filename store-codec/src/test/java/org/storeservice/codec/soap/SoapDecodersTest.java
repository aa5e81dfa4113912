package org.storeservice.codec.soap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.storeservice.api.Status;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.CodecResponse;
import org.storeservice.codec.Fixture;
import org.storeservice.codec.SoapGoldenTest;
import org.storeservice.codec.wire.Operation;
import org.storeservice.codec.wire.XmlReaders;

/** The SOAP decoder and encoders on bytes alone, without a store or the dispatcher. */
class SoapDecodersTest {
    private static final CodecLimits LIMITS = CodecLimits.defaults();

    private static InputStream bytes(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void soapDecoderReadsParametersAndStreamsContent() throws Exception {
        SoapDecoder decoder = new SoapDecoder(new XmlReaders(LIMITS), Fixture.NS, LIMITS);
        try (SoapCall call = decoder.decode("text/xml", "\"http://tempuri.org/WriteString\"",
                bytes(Fixture.soap11(Fixture.writeString("k", "v"))))) {
            assertEquals(SoapVersion.SOAP_11, call.version());
            assertEquals(Operation.WRITE_STRING, call.operation());
            assertEquals("k", call.key());
            assertEquals("v", call.value());
        }
        try (SoapCall call = decoder.decode("application/soap+xml", null, bytes(Fixture.soap12(Fixture.writeBytes("k", "aGk="))))) {
            assertEquals(SoapVersion.SOAP_12, call.version());
            assertEquals(Operation.WRITE_BYTES, call.operation());
            assertArrayEquals("hi".getBytes(StandardCharsets.US_ASCII), call.content().readAllBytes());
            call.finish();
            assertNull(call.value());
        }
        SoapFault fault = assertThrows(SoapFault.class, () -> decoder.decode("text/xml", "urn:x", bytes("")));
        assertEquals(500, fault.httpStatus());
        assertEquals(FaultCode.CLIENT, fault.code());
    }

    @Test
    void soapEncodersWriteEachVersion() {
        SoapEncoder soap12 = new SoapEncoder(SoapVersion.SOAP_12, "urn:n");
        assertEquals("application/soap+xml; charset=utf-8", soap12.success(Operation.WRITE_BYTES, Status.ERROR).header("Content-Type"));
        assertEquals(Fixture.XML_DECL + "<soap:Envelope xmlns:soap=\"" + Fixture.SOAP12 + "\"" + Fixture.XSI_XSD
                + "><soap:Body><WriteBytesResponse xmlns=\"urn:n\"><WriteBytesResult>Error</WriteBytesResult></WriteBytesResponse>"
                + "</soap:Body></soap:Envelope>", Fixture.body(soap12.success(Operation.WRITE_BYTES, Status.ERROR)));
        CodecResponse fault = new SoapEncoder(SoapVersion.SOAP_11, "urn:n")
                .fault(new SoapFault(SoapVersion.SOAP_11, FaultCode.SERVER, 500, "a\r\n<b>"));
        assertEquals(SoapGoldenTest.fault11("Server", "a\r\n&lt;b&gt;"), Fixture.body(fault));
    }
}
