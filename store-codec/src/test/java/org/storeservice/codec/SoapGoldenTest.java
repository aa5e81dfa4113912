package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;
import static org.storeservice.codec.Fixture.NS;
import static org.storeservice.codec.Fixture.PATH;
import static org.storeservice.codec.Fixture.SOAP11;
import static org.storeservice.codec.Fixture.SOAP12;
import static org.storeservice.codec.Fixture.XML_DECL;
import static org.storeservice.codec.Fixture.XSI_XSD;
import static org.storeservice.codec.Fixture.assertResponse;
import static org.storeservice.codec.Fixture.headers;
import static org.storeservice.codec.Fixture.post;
import static org.storeservice.codec.Fixture.soap11;
import static org.storeservice.codec.Fixture.soap11Post;
import static org.storeservice.codec.Fixture.soap12;
import static org.storeservice.codec.Fixture.soap12Post;
import static org.storeservice.codec.Fixture.writeBytes;
import static org.storeservice.codec.Fixture.writeString;

import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.storeservice.api.Store;

/** Exact response bytes and headers of the SOAP bindings: the success paths and the fault matrix (notes §1–4). */
public class SoapGoldenTest {
    /** Public only for its {@link #fault11} helper, which the SOAP encoder's own test shares. */
    SoapGoldenTest() {
    }

    private static final List<Map.Entry<String, String>> OK_11 = headers("private, max-age=0", "text/xml; charset=utf-8");
    private static final List<Map.Entry<String, String>> OK_12 =
            headers("private, max-age=0", "application/soap+xml; charset=utf-8");
    private static final List<Map.Entry<String, String>> FAULT_11 = headers("private", "text/xml; charset=utf-8");
    private static final List<Map.Entry<String, String>> FAULT_12 = headers("private", "application/soap+xml; charset=utf-8");
    private static final List<Map.Entry<String, String>> MUST_UNDERSTAND_11 = headers("private, max-age=0", "text/xml; charset=utf-8");
    private static final List<Map.Entry<String, String>> MUST_UNDERSTAND_12 =
            headers("private, max-age=0", "application/soap+xml; charset=utf-8");

    private final Fixture fixture = new Fixture();

    static String success(String envelopeNamespace, String operation, String status) {
        return XML_DECL + "<soap:Envelope xmlns:soap=\"" + envelopeNamespace + "\"" + XSI_XSD + "><soap:Body><"
                + operation + "Response xmlns=\"http://tempuri.org/\"><" + operation + "Result>" + status + "</"
                + operation + "Result></" + operation + "Response></soap:Body></soap:Envelope>";
    }

    public static String fault11(String code, String reason) {
        return XML_DECL + "<soap:Envelope xmlns:soap=\"" + SOAP11 + "\"" + XSI_XSD + "><soap:Body><soap:Fault>"
                + "<faultcode>soap:" + code + "</faultcode><faultstring>" + reason + "</faultstring><detail />"
                + "</soap:Fault></soap:Body></soap:Envelope>";
    }

    static String fault12(String code, String reason) {
        return XML_DECL + "<soap:Envelope xmlns:soap=\"" + SOAP12 + "\"" + XSI_XSD + "><soap:Body><soap:Fault>"
                + "<soap:Code><soap:Value>soap:" + code + "</soap:Value></soap:Code><soap:Reason>"
                + "<soap:Text xml:lang=\"en\">" + reason + "</soap:Text></soap:Reason><soap:Detail /></soap:Fault>"
                + "</soap:Body></soap:Envelope>";
    }

    @Test
    void soap11WriteStringSuccessIsExactlyAsmx() {
        CodecResponse response = fixture.handle(soap11Post("WriteString", soap11(writeString("k", "v"))));
        // the capture from a real ASMX server, wire notes §4
        assertResponse(200, OK_11, "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><soap:Body><WriteStringResponse xmlns=\"http://tempuri.org/\"><WriteStringResult>Success</WriteStringResult></WriteStringResponse></soap:Body></soap:Envelope>", response);
        assertEquals("v", fixture.text("k").orElseThrow());
    }

    @Test
    void soap11WriteBytesSuccess() {
        CodecResponse response = fixture.handle(soap11Post("WriteBytes", soap11(writeBytes("k", "aGk="))));
        assertResponse(200, OK_11, success(SOAP11, "WriteBytes", "Success"), response);
        assertArrayEquals("hi".getBytes(StandardCharsets.US_ASCII), fixture.bytes("k").orElseThrow());
    }

    @Test
    void soap12WriteStringSuccess() {
        CodecResponse response = fixture.handle(soap12Post(soap12(writeString("k", "v"))));
        assertResponse(200, OK_12, success(SOAP12, "WriteString", "Success"), response);
        assertEquals("v", fixture.text("k").orElseThrow());
    }

    @Test
    void soap12WriteBytesSuccessWithActionParameter() {
        CodecResponse response = fixture.handle(post(PATH, soap12(writeBytes("k", "aGk=")))
                .header("Content-Type", "application/soap+xml; charset=utf-8; action=\"http://tempuri.org/WriteBytes\""));
        assertResponse(200, OK_12, success(SOAP12, "WriteBytes", "Success"), response);
        assertArrayEquals("hi".getBytes(StandardCharsets.US_ASCII), fixture.bytes("k").orElseThrow());
    }

    @Test
    void errorStatusIsAResultNotAFault() {
        CodecResponse response = fixture.handle(soap11Post("WriteString", soap11("<WriteString xmlns=\"" + NS + "\"/>")));
        assertResponse(200, OK_11, success(SOAP11, "WriteString", "Error"), response);
        CodecResponse bytes = fixture.handle(soap12Post(soap12("<WriteBytes xmlns=\"" + NS + "\"><key>k</key></WriteBytes>")));
        assertResponse(200, OK_12, success(SOAP12, "WriteBytes", "Error"), bytes);
        fixture.assertNothingStored();
    }

    @Test
    void soapActionUnquotedAndUrlEncodedIsAccepted() {
        CodecResponse response = fixture.handle(post(PATH, soap11(writeString("k", "v")))
                .header("Content-Type", "text/xml; charset=utf-8").header("soapaction", "http%3A%2F%2Ftempuri.org%2FWriteString"));
        assertResponse(200, OK_11, success(SOAP11, "WriteString", "Success"), response);
    }

    @Test
    void emptySoapActionIsTheCapturedFault() {
        for (String action : new String[] {"\"\"", ""}) {
            CodecResponse response = fixture.handle(post(PATH, soap11(writeString("k", "v")))
                    .header("Content-Type", "text/xml; charset=utf-8").header("SOAPAction", action));
            // captured from a real ASMX server, wire notes §1
            assertResponse(500, FAULT_11, "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Server did not recognize the value of HTTP Header SOAPAction: .</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>", response);
        }
        fixture.assertNothingStored();
    }

    @Test
    void unknownSoapActionIsAClientFaultWithTheDecodedValue() {
        CodecResponse response = fixture.handle(post(PATH, soap11(writeString("k", "v")))
                .header("Content-Type", "text/xml; charset=utf-8").header("SOAPAction", "\"urn:a+b%3C\""));
        assertResponse(500, FAULT_11, fault11("Client", "Server did not recognize the value of HTTP Header SOAPAction: urn:a b&lt;."), response);
        fixture.assertNothingStored();
    }

    @Test
    void soapActionIsCaseSensitive() {
        CodecResponse response = fixture.handle(post(PATH, soap11(writeString("k", "v")))
                .header("Content-Type", "text/xml").header("SOAPAction", "http://tempuri.org/writestring"));
        assertResponse(500, FAULT_11, fault11("Client", "Server did not recognize the value of HTTP Header SOAPAction: http://tempuri.org/writestring."), response);
    }

    @Test
    void soapActionRoutesEvenWhenTheBodyCarriesTheOtherOperation() {
        // ASMX does not check the wrapper against the action: WriteString runs with key=null, value=null
        CodecResponse response = fixture.handle(soap11Post("WriteString", soap11(writeBytes("k", "aGk="))));
        assertResponse(200, OK_11, success(SOAP11, "WriteString", "Error"), response);
        fixture.assertNothingStored();
    }

    @Test
    void soap11WithoutSoapActionIsRoutedByElementAndAnsweredIn11() {
        CodecResponse response = fixture.handle(post(PATH, soap11(writeString("k", "v"))).header("Content-Type", "text/xml"));
        assertResponse(200, OK_11, success(SOAP11, "WriteString", "Success"), response);
    }

    @Test
    void soap11WithoutSoapActionAndUnknownElementIsAClientFault() {
        CodecResponse response = fixture.handle(post(PATH, soap11("<Nope xmlns=\"" + NS + "\"/>")).header("Content-Type", "text/xml"));
        assertResponse(500, FAULT_11, fault11("Client", "Unable to handle request without a valid action parameter. Please supply a valid soap action."), response);
    }

    @Test
    void soap12UnknownActionAndUnknownElementIsASenderFault() {
        CodecResponse response = fixture.handle(post(PATH, soap12("<Nope xmlns=\"" + NS + "\"/>"))
                .header("Content-Type", "application/soap+xml;action=urn:nope"));
        assertResponse(500, FAULT_12, fault12("Sender", "Unable to handle request. The action 'urn:nope' was not recognized."), response);
    }

    @Test
    void soap12EmptyActionIsNoAction() {
        CodecResponse unknown = fixture.handle(post(PATH, soap12("<Nope xmlns=\"" + NS + "\"/>"))
                .header("Content-Type", "application/soap+xml; action=\"\""));
        assertResponse(500, FAULT_12, fault12("Sender", "Unable to handle request without a valid action parameter. Please supply a valid soap action."), unknown);
        CodecResponse routed = fixture.handle(post(PATH, soap12(writeString("k", "v"))).header("Content-Type", "application/soap+xml;action="));
        assertResponse(200, OK_12, success(SOAP12, "WriteString", "Success"), routed);
    }

    @Test
    void soap12UnknownActionFallsBackToTheBodyElement() {
        CodecResponse response = fixture.handle(post(PATH, soap12(writeString("k", "v")))
                .header("Content-Type", "application/soap+xml; action='urn:nope'"));
        assertResponse(200, OK_12, success(SOAP12, "WriteString", "Success"), response);
    }

    @Test
    void soap12WithoutActionAndEmptyBodyIsASenderFault() {
        CodecResponse response = fixture.handle(soap12Post(soap12("")));
        assertResponse(500, FAULT_12, fault12("Sender", "Unable to handle request without a valid action parameter. Please supply a valid soap action."), response);
    }

    @Test
    void soap12EnvelopeAsTextXmlIsAnsweredIn12() {
        CodecResponse response = fixture.handle(soap11Post("WriteString", soap12(writeString("k", "v"))));
        assertResponse(200, OK_12, success(SOAP12, "WriteString", "Success"), response);
        assertEquals("v", fixture.text("k").orElseThrow());
    }

    @Test
    void soap11EnvelopeAsSoap12MediaTypeIs415WithAFaultBody() {
        CodecResponse response = fixture.handle(soap12Post(soap11(writeString("k", "v"))));
        assertResponse(415, FAULT_11, fault11("Client", "Server found request content type to be 'application/soap+xml; charset=utf-8', but expected 'text/xml'."), response);
        fixture.assertNothingStored();
    }

    @Test
    void nonSoapContentTypeIs415WithAFaultBody() {
        CodecResponse withAction = fixture.handle(post(PATH, soap11(writeString("k", "v")))
                .header("Content-Type", "application/json").header("SOAPAction", "\"http://tempuri.org/WriteString\""));
        assertResponse(415, FAULT_11, fault11("Client", "Server found request content type to be 'application/json', but expected 'text/xml'."), withAction);
        CodecResponse noContentType = fixture.handle(post(PATH, soap12(writeString("k", "v"))));
        assertResponse(415, FAULT_12, fault12("Sender", "Server found request content type to be '', but expected 'application/soap+xml'."), noContentType);
        fixture.assertNothingStored();
    }

    @Test
    void malformedXmlAfterRoutingIs400WithAFaultBody() {
        CodecResponse response = fixture.handle(soap11Post("WriteString", "<soap:Envelope xmlns:soap=\"" + SOAP11 + "\"><soap:Body><x></y>"));
        assertEquals(400, response.status());
        assertEquals(FAULT_11, response.headers());
        assertStartsWith(XML_DECL + "<soap:Envelope xmlns:soap=\"" + SOAP11 + "\"" + XSI_XSD
                + "><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Server was unable to read request. ---&gt; ", response);
        fixture.assertNothingStored();
    }

    @Test
    void emptyBodyWithSoapActionIs400RootElementIsMissing() {
        CodecResponse response = fixture.handle(soap11Post("WriteString", ""));
        assertResponse(400, FAULT_11, fault11("Client", "Server was unable to read request. ---&gt; Root element is missing."), response);
    }

    @Test
    void malformedXmlWhileRoutingByElementIsA500ReceiverFault() {
        CodecResponse response = fixture.handle(soap12Post("not xml"));
        assertEquals(500, response.status());
        assertEquals(FAULT_12, response.headers());
        assertStartsWith(XML_DECL + "<soap:Envelope xmlns:soap=\"" + SOAP12 + "\"" + XSI_XSD
                + "><soap:Body><soap:Fault><soap:Code><soap:Value>soap:Receiver</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang=\"en\">Server was unable to process request. ---&gt; ", response);
    }

    @Test
    void invalidBase64Is400AndNothingIsStored() {
        CodecResponse response = fixture.handle(soap11Post("WriteBytes", soap11(writeBytes("k", "a*b!"))));
        assertEquals(400, response.status());
        assertStartsWith(XML_DECL + "<soap:Envelope xmlns:soap=\"" + SOAP11 + "\"" + XSI_XSD
                + "><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Server was unable to read request. ---&gt; The content is not valid base64", response);
        fixture.assertNothingStored();
    }

    @Test
    void unknownEnvelopeNamespaceIsVersionMismatchWithUpgradeHeader() {
        CodecResponse response = fixture.handle(soap11Post("WriteString", "<e:Envelope xmlns:e=\"urn:other\"><e:Body/></e:Envelope>"));
        assertResponse(500, FAULT_11, versionMismatch("urn:other"), response);
    }

    /**
     * Follows SoapServerProtocol.CreateUpgradeHeader / CreateUpgradeEnvelope (referencesource, System.Web.Services;
     * wire notes §11): each SupportedEnvelope gets {@code qname}, then an explicit {@code xmlns:prefix}.
     */
    private static String versionMismatch(String rootNamespace) {
        return XML_DECL + "<soap:Envelope xmlns:soap=\"" + SOAP11 + "\"" + XSI_XSD + "><soap:Header>"
                + "<soap12:Upgrade xmlns:soap12=\"http://www.w3.org/2003/05/soap-envelope\">"
                + "<soap12:SupportedEnvelope qname=\"soap:Envelope\" xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\" />"
                + "<soap12:SupportedEnvelope qname=\"soap12:Envelope\" xmlns:soap12=\"http://www.w3.org/2003/05/soap-envelope\" />"
                + "</soap12:Upgrade></soap:Header><soap:Body><soap:Fault>"
                + "<faultcode>soap:VersionMismatch</faultcode><faultstring>Possible SOAP version mismatch: Envelope namespace " + rootNamespace
                + " was unexpected. Expecting http://schemas.xmlsoap.org/soap/envelope/.</faultstring><detail /></soap:Fault></soap:Body></soap:Envelope>";
    }

    @Test
    void envelopeWithoutBodyIsAClientFaultWhenRoutedByAction() {
        CodecResponse response = fixture.handle(soap11Post("WriteString", "<soap:Envelope xmlns:soap=\"" + SOAP11 + "\"/>"));
        assertResponse(500, FAULT_11, fault11("Client", "Server was unable to read request. ---&gt; Request format is invalid: Missing required soap:Body element."), response);
        CodecResponse soap12 = fixture.handle(post(PATH, "<soap:Envelope xmlns:soap=\"" + SOAP12 + "\"><soap:Header/><Body/></soap:Envelope>")
                .header("Content-Type", "application/soap+xml; action=\"http://tempuri.org/WriteString\""));
        assertResponse(500, FAULT_12, fault12("Sender", "Server was unable to read request. ---&gt; Request format is invalid: Missing required soap:Body element."), soap12);
    }

    @Test
    void missingEnvelopeOrBodyIsAServerFaultWhenRoutingByElement() {
        // ASMX's GetRequestElement throws a plain InvalidOperationException: "unable to process", Server/Receiver
        String reason = "Server was unable to process request. ---&gt; Request format is invalid: Missing required soap:";
        CodecResponse noBody = fixture.handle(soap12Post("<soap:Envelope xmlns:soap=\"" + SOAP12 + "\"><soap:Header/><Body/></soap:Envelope>"));
        assertResponse(500, FAULT_12, fault12("Receiver", reason + "Body element."), noBody);
        CodecResponse empty = fixture.handle(post(PATH, "<soap:Envelope xmlns:soap=\"" + SOAP11 + "\"/>").header("Content-Type", "text/xml"));
        assertResponse(500, FAULT_11, fault11("Server", reason + "Body element."), empty);
        CodecResponse misspelt = fixture.handle(soap12Post("<s:Envelop xmlns:s=\"" + SOAP12 + "\"><s:Body>" + writeString("k", "v") + "</s:Body></s:Envelop>"));
        assertResponse(500, FAULT_12, fault12("Receiver", reason + "Envelope element."), misspelt);
        fixture.assertNothingStored();
    }

    @Test
    void rootInAnotherNamespaceIsVersionMismatchWhateverItsName() {
        // ASMX checks the root's namespace (CheckHelperVersion) before its local name
        CodecResponse response = fixture.handle(soap11Post("WriteString", writeString("k", "v")));
        assertResponse(500, FAULT_11, versionMismatch(NS), response);
        CodecResponse unqualified = fixture.handle(soap12Post("<Envelope><Body>" + writeString("k", "v") + "</Body></Envelope>"));
        assertResponse(500, FAULT_11, versionMismatch(""), unqualified);
        fixture.assertNothingStored();
    }

    @Test
    void misspeltEnvelopeIsAClientFaultInTheRootNamespacesVersion() {
        // a SOAPAction makes 1.1 the guess; the root's namespace says 1.2, and the fault follows it
        CodecResponse soap12 = fixture.handle(soap11Post("WriteString",
                "<s12:Envelop xmlns:s12=\"" + SOAP12 + "\"><s12:Body>" + writeString("k", "v") + "</s12:Body></s12:Envelop>"));
        assertResponse(500, FAULT_12, fault12("Sender", "Server was unable to read request. ---&gt; Request format is invalid: Missing required soap:Envelope element."), soap12);
        CodecResponse soap11 = fixture.handle(soap11Post("WriteString",
                "<soap:Envelop xmlns:soap=\"" + SOAP11 + "\"><soap:Body>" + writeString("k", "v") + "</soap:Body></soap:Envelop>"));
        assertResponse(500, FAULT_11, fault11("Client", "Server was unable to read request. ---&gt; Request format is invalid: Missing required soap:Envelope element."), soap11);
        fixture.assertNothingStored();
    }

    @Test
    void unknownMustUnderstandHeaderIsAFaultAndNothingIsStored() {
        String header = "<soap:Header><Auth xmlns=\"urn:x\" soap:mustUnderstand=\"1\">t</Auth></soap:Header>";
        CodecResponse response = fixture.handle(soap11Post("WriteString", "<soap:Envelope xmlns:soap=\"" + SOAP11 + "\">"
                + header + "<soap:Body>" + writeString("k", "v") + "</soap:Body></soap:Envelope>"));
        // a header fault (SoapHeaderException) has no detail element; raised in WriteReturns, after
        // PrepareContext set max-age 0 (wire notes §3, §11)
        assertResponse(500, MUST_UNDERSTAND_11, XML_DECL + "<soap:Envelope xmlns:soap=\"" + SOAP11 + "\"" + XSI_XSD
                + "><soap:Body><soap:Fault><faultcode>soap:MustUnderstand</faultcode><faultstring>SOAP header Auth was not understood."
                + "</faultstring></soap:Fault></soap:Body></soap:Envelope>", response);
        CodecResponse soap12 = fixture.handle(soap12Post("<soap:Envelope xmlns:soap=\"" + SOAP12 + "\">"
                + header.replace("\"1\"", "\"true\"") + "<soap:Body>" + writeBytes("k", "aGk=") + "</soap:Body></soap:Envelope>"));
        assertResponse(500, MUST_UNDERSTAND_12, XML_DECL + "<soap:Envelope xmlns:soap=\"" + SOAP12 + "\"" + XSI_XSD
                + "><soap:Body><soap:Fault><soap:Code><soap:Value>soap:MustUnderstand</soap:Value></soap:Code><soap:Reason>"
                + "<soap:Text xml:lang=\"en\">SOAP header Auth was not understood.</soap:Text></soap:Reason></soap:Fault></soap:Body></soap:Envelope>", soap12);
        fixture.assertNothingStored();
    }

    @Test
    void headerWithoutMustUnderstandIsIgnored() {
        CodecResponse response = fixture.handle(soap11Post("WriteString", "<soap:Envelope xmlns:soap=\"" + SOAP11 + "\">"
                + "<soap:Header><Auth xmlns=\"urn:x\" soap:mustUnderstand=\"0\"><a>t</a></Auth></soap:Header><soap:Body>"
                + writeString("k", "v") + "</soap:Body></soap:Envelope>"));
        assertResponse(200, OK_11, success(SOAP11, "WriteString", "Success"), response);
    }

    @Test
    void storeExceptionIsAServerFaultWithTheRemoteMessage() {
        Store failing = mock(Store.class, CALLS_REAL_METHODS);
        when(failing.writeString(anyString(), anyString())).thenThrow(new IllegalStateException("boom <1>"));
        when(failing.writeBytes(anyString(), any(InputStream.class))).thenThrow(new IllegalStateException("boom"));
        StoreCodec codec = StoreCodec.builder(failing).build();
        CodecResponse soap11 = codec.handle(soap11Post("WriteString", soap11(writeString("k", "v"))).build());
        assertResponse(500, FAULT_11, fault11("Server", "Server was unable to process request. ---&gt; boom &lt;1&gt;"), soap11);
        CodecResponse soap12 = codec.handle(soap12Post(soap12(writeBytes("k", "aGk="))).build());
        // the example written by the source, wire notes §2
        assertResponse(500, FAULT_12, "<?xml version=\"1.0\" encoding=\"utf-8\"?><soap:Envelope xmlns:soap=\"http://www.w3.org/2003/05/soap-envelope\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><soap:Body><soap:Fault><soap:Code><soap:Value>soap:Receiver</soap:Value></soap:Code><soap:Reason><soap:Text xml:lang=\"en\">Server was unable to process request. ---&gt; boom</soap:Text></soap:Reason><soap:Detail /></soap:Fault></soap:Body></soap:Envelope>", soap12);
    }

    @Test
    void requestOverTheSizeLimitIsTheAsmxServerFault() {
        Fixture small = new Fixture(CodecLimits.builder().maxRequestBytes(100).build());
        String reason = "There was an exception running the extensions specified in the config file. ---&gt; Maximum request length exceeded.";
        String xml = soap11(writeString("k", "v".repeat(200)));
        CodecResponse counted = small.handle(soap11Post("WriteString", xml));
        assertResponse(500, FAULT_11, fault11("Server", reason), counted);
        CodecResponse declared = small.handle(soap12Post(soap12(writeString("k", "v"))).header("Content-Length", "101"));
        assertResponse(500, FAULT_12, fault12("Receiver", reason), declared);
        small.assertNothingStored();
    }

    @Test
    void requestOverTheSizeLimitIsAnsweredInTheVersionGuessedFromTheHeaders() {
        // ASMX reads the whole body before it reads the envelope, so the envelope's version is never known
        Fixture small = new Fixture(CodecLimits.builder().maxRequestBytes(300).build());
        String reason = "There was an exception running the extensions specified in the config file. ---&gt; Maximum request length exceeded.";
        // in 100-byte reads, so the envelope has been read when the limit is reached
        CodecResponse soap12WithSoapAction = small.handle(soap11Post("WriteString", "")
                .body(Fixture.chunked(soap12(writeString("k", "v".repeat(300))).getBytes(StandardCharsets.UTF_8), 100)));
        assertResponse(500, FAULT_11, fault11("Server", reason), soap12WithSoapAction);
        CodecResponse soap11WithoutSoapAction = small.handle(post(PATH, "").header("Content-Type", "text/xml")
                .body(Fixture.chunked(soap11(writeString("k", "v".repeat(300))).getBytes(StandardCharsets.UTF_8), 100)));
        assertResponse(500, FAULT_12, fault12("Receiver", reason), soap11WithoutSoapAction);
        small.assertNothingStored();
    }

    @Test
    void customNamespaceChangesActionsAndResponses() {
        StoreCodec codec = StoreCodec.builder(org.storeservice.api.DefaultStore.of(fixture.storage)).namespace("urn:x").build();
        CodecResponse response = codec.handle(post(PATH, soap11("<WriteString xmlns=\"urn:x\"><key>k</key><value>v</value></WriteString>"))
                .header("Content-Type", "text/xml").header("SOAPAction", "urn:x/WriteString").build());
        assertResponse(200, OK_11, success(SOAP11, "WriteString", "Success").replace("http://tempuri.org/", "urn:x"), response);
    }

    private static void assertStartsWith(String prefix, CodecResponse response) {
        String body = Fixture.body(response);
        assertEquals(prefix, body.substring(0, Math.min(prefix.length(), body.length())), body);
    }
}
