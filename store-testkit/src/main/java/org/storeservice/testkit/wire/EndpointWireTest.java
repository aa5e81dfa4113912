package org.storeservice.testkit.wire;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Base64;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.storeservice.api.storage.EntryKind;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StoredEntry;

/**
 * The endpoint's wire behaviour as JUnit tests, the same for every host: extend it, start a real server on an
 * ephemeral port serving the Store endpoint, and return its address from {@link #endpoint()} and its storage
 * from {@link #storage()}. Every test here then runs through the JDK's HTTP client (or a bare socket, for
 * what that client will not send) against your host: each binding's success bytes, a SOAP fault, the HTTP
 * bindings' errors, the WSDL and disco addresses (which must name the endpoint as the client reached it:
 * scheme, Host header, context path, mapping), the help pages, the request size limit, 404 beside the endpoint
 * and 405 on it.
 *
 * <p>The server must be configured with a request size limit of exactly {@link #MAX_REQUEST_BYTES}, the
 * default namespace and an empty storage that the tests may write to; one server may serve all of a class's
 * tests (each test writes keys of its own).
 *
 * <p>Bodies are compared byte for byte with the ASMX responses the codec's golden tests hold. Content types
 * are compared as media types (without the optional whitespace after {@code ';'}): servlet containers rewrite
 * {@code text/xml; charset=utf-8} as {@code text/xml;charset=utf-8}, which means the same in HTTP.
 *
 * <p>The whole suite a host author extends, one short test per case.
 */
@Timeout(120)
public abstract class EndpointWireTest {
    /** The request size limit the host under test must be configured with: 64 KiB. */
    public static final long MAX_REQUEST_BYTES = 64 * 1024;

    /** For subclasses, which start the host under test. */
    protected EndpointWireTest() {
    }

    private static final String NS = "http://tempuri.org/";
    private static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
    private static final String SOAP12 = "http://www.w3.org/2003/05/soap-envelope";
    private static final String XML_DECL = "<?xml version=\"1.0\" encoding=\"utf-8\"?>";
    private static final String XSI_XSD = " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
            + " xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"";
    private static final String TEXT_XML = "text/xml; charset=utf-8";
    private static final String TEXT_PLAIN = "text/plain; charset=utf-8";
    private static final String FORM = "application/x-www-form-urlencoded";
    private static final String TOO_LARGE_FAULT = "There was an exception running the extensions specified in the"
            + " config file. ---&gt; Maximum request length exceeded.";

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    /** The endpoint's absolute address on the running server, e.g. {@code http://127.0.0.1:PORT/app/API/Store.asmx}. */
    protected abstract URI endpoint();

    /** The storage the endpoint writes to, read back by the tests. */
    protected abstract Storage storage();

    static Stream<Arguments> writes() {
        String soap12 = "application/soap+xml; charset=utf-8";
        return Stream.of(
                Arguments.of("SOAP 1.1", "WriteString", TEXT_XML, soapSuccess(SOAP11, "WriteString")),
                Arguments.of("SOAP 1.1", "WriteBytes", TEXT_XML, soapSuccess(SOAP11, "WriteBytes")),
                Arguments.of("SOAP 1.2", "WriteString", soap12, soapSuccess(SOAP12, "WriteString")),
                Arguments.of("SOAP 1.2", "WriteBytes", soap12, soapSuccess(SOAP12, "WriteBytes")),
                Arguments.of("HTTP GET", "WriteString", TEXT_XML, statusSuccess()),
                Arguments.of("HTTP GET", "WriteBytes", TEXT_XML, statusSuccess()),
                Arguments.of("HTTP POST", "WriteString", TEXT_XML, statusSuccess()),
                Arguments.of("HTTP POST", "WriteBytes", TEXT_XML, statusSuccess()));
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("writes")
    void everyBindingWritesAndAnswersSuccess(String binding, String operation, String contentType, String body)
            throws Exception {
        String key = binding + " " + operation + " ü";
        HttpResponse<byte[]> response = send(request(binding, operation, key));

        assertAnswer(200, contentType, body, response);
        StoredEntry stored = storage().get(key).orElseThrow();
        if (operation.equals("WriteString")) {
            assertEquals(EntryKind.TEXT, stored.kind());
            assertEquals("välue <&>", stored.text());
        } else {
            assertEquals(EntryKind.BYTES, stored.kind());
            assertArrayEquals(new byte[] {0, 104, (byte) 255}, stored.bytes());
        }
    }

    @Test
    void aLargeChunkedBodyStreamsThroughWhole() throws Exception {
        byte[] content = new byte[40 * 1024]; // base64 makes it 54 KiB: under the limit, over any one read
        new Random(18).nextBytes(content);
        byte[] envelope = envelope(SOAP11, "WriteBytes", "large", Base64.getEncoder().encodeToString(content))
                .getBytes(UTF_8);
        HttpRequest request = soap11(HttpRequest.newBuilder(endpoint()), "WriteBytes")
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(envelope)))
                .build();

        assertAnswer(200, TEXT_XML, soapSuccess(SOAP11, "WriteBytes"), send(request));
        assertArrayEquals(content, storage().get("large").orElseThrow().bytes());
    }

    @Test
    void anUnknownSoapActionIsTheAsmxClientFault() throws Exception {
        HttpRequest request = HttpRequest.newBuilder(endpoint())
                .header("Content-Type", TEXT_XML)
                .header("SOAPAction", "urn:nope")
                .POST(HttpRequest.BodyPublishers.ofString(envelope(SOAP11, "WriteString", "fault", "v")))
                .build();

        assertAnswer(500, TEXT_XML, XML_DECL + "<soap:Envelope xmlns:soap=\"" + SOAP11 + "\"" + XSI_XSD
                + "><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>Server did not recognize"
                + " the value of HTTP Header SOAPAction: urn:nope.</faultstring><detail /></soap:Fault></soap:Body>"
                + "</soap:Envelope>", send(request));
        assertEquals(Optional.empty(), storage().get("fault"));
    }

    @Test
    void theHttpBindingsAnswerAMissingParameterInPlainText() throws Exception {
        HttpResponse<byte[]> get = send(HttpRequest.newBuilder(at("/WriteString?value=v")).GET().build());
        HttpResponse<byte[]> post = send(HttpRequest.newBuilder(at("/WriteBytes"))
                .header("Content-Type", FORM).POST(HttpRequest.BodyPublishers.ofString("content=1")).build());

        assertAnswer(500, TEXT_PLAIN, "Missing parameter: key.\r\n", get);
        assertAnswer(500, TEXT_PLAIN, "Missing parameter: key.\r\n", post);
    }

    @Test
    void theWsdlNamesTheEndpointAsTheClientReachedIt() throws Exception {
        HttpResponse<byte[]> response = send(HttpRequest.newBuilder(at("?WSDL")).GET().build());

        assertEquals(200, response.statusCode());
        assertMediaType(TEXT_XML, response);
        String wsdl = new String(response.body(), UTF_8);
        assertTrue(wsdl.startsWith(XML_DECL + "\r\n<wsdl:definitions "), wsdl);
        assertEquals(4, count(wsdl, ":address location=\"" + endpoint() + "\""), wsdl);
        assertEquals(4, count(wsdl, ":address location=\""), wsdl);
    }

    @Test
    void theWsdlFollowsTheHostHeader() throws Exception {
        String received = RawExchange.send(endpoint(), "GET " + endpoint().getRawPath() + "?wsdl HTTP/1.1\r\n"
                + "Host: Store.Example:8443\r\nConnection: close\r\n\r\n");

        assertTrue(received.startsWith("HTTP/1.1 200 "), received);
        // the host lower-cased, as System.Uri gives it to ASMX
        assertEquals(4, count(received, ":address location=\"http://store.example:8443" + endpoint().getRawPath() + "\""),
                received);
    }

    @Test
    void theDiscoDocumentPointsAtTheWsdl() throws Exception {
        HttpResponse<byte[]> response = send(HttpRequest.newBuilder(at("?disco")).GET().build());

        assertEquals(200, response.statusCode());
        assertMediaType(TEXT_XML, response);
        String disco = new String(response.body(), UTF_8);
        assertTrue(disco.contains("ref=\"" + endpoint() + "?wsdl\""), disco);
        assertTrue(disco.contains("address=\"" + endpoint() + "\""), disco);
    }

    @Test
    void theHelpPagesDescribeTheOperations() throws Exception {
        HttpResponse<byte[]> list = send(HttpRequest.newBuilder(endpoint()).GET().build());
        HttpResponse<byte[]> operation = send(HttpRequest.newBuilder(at("?op=WriteString")).GET().build());

        assertEquals(200, list.statusCode());
        assertMediaType("text/html; charset=utf-8", list);
        String page = new String(list.body(), UTF_8);
        String path = endpoint().getRawPath();
        assertTrue(page.contains("href=\"" + path.substring(path.lastIndexOf('/') + 1) + "?op=WriteBytes\""), page);
        assertEquals(200, operation.statusCode());
        String operationPage = new String(operation.body(), UTF_8);
        assertTrue(operationPage.contains("POST " + path + " HTTP/1.1"), operationPage);
        // the samples name the host and port the request came in on (a default port would be dropped)
        assertTrue(operationPage.contains("Host: " + endpoint().getAuthority() + "\r\n"), operationPage);
    }

    @Test
    void aChunkedFormOverTheLimitIsRefusedAndStoresNothing() throws Exception {
        // Of unknown length, so the client sends it chunked: no Content-Length to refuse it by, only counting.
        byte[] form = ("key=big-form&value=" + "x".repeat((int) MAX_REQUEST_BYTES * 3 / 2)).getBytes(UTF_8);
        HttpRequest request = HttpRequest.newBuilder(at("/WriteString"))
                .header("Content-Type", FORM)
                .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(form)))
                .build();

        assertAnswer(500, TEXT_PLAIN, "Maximum request length exceeded.\r\n", send(request));
        assertEquals(Optional.empty(), storage().get("big-form"));
    }

    @Test
    void aChunkedEnvelopeOverTheLimitGetsTheAsmxFaultAndStoresNothing() throws Exception {
        byte[] oversized = envelope(SOAP11, "WriteString", "big-soap", "x".repeat((int) MAX_REQUEST_BYTES * 3 / 2))
                .getBytes(UTF_8);
        for (int i = 0; i < 5; i++) { // the connection stays usable after each refusal
            HttpRequest request = soap11(HttpRequest.newBuilder(endpoint()), "WriteString")
                    .POST(HttpRequest.BodyPublishers.ofInputStream(() -> new ByteArrayInputStream(oversized)))
                    .build();

            assertAnswer(500, TEXT_XML, fault11Server(TOO_LARGE_FAULT), send(request));
        }
        assertEquals(Optional.empty(), storage().get("big-soap"));
    }

    @Test
    void anEarlyAnswerOnContentLengthReachesAClientThatIsStillSending() throws Exception {
        // Refused on the Content-Length before the body has arrived: the host must let the client finish
        // sending, or the client gets a connection reset instead of the fault now and then; hence many tries.
        String envelope = envelope(SOAP11, "WriteString", "big-declared", "z".repeat((int) MAX_REQUEST_BYTES * 3 / 2));
        for (int i = 0; i < 100; i++) {
            HttpRequest request = soap11(HttpRequest.newBuilder(endpoint()), "WriteString")
                    .POST(HttpRequest.BodyPublishers.ofString(envelope))
                    .build();

            assertAnswer(500, TEXT_XML, fault11Server(TOO_LARGE_FAULT), send(request));
        }
        assertEquals(Optional.empty(), storage().get("big-declared"));
    }

    @Test
    void aClientThatAsksBeforeSendingGetsTheFaultWithoutSending() throws Exception {
        // Should the host wait for the body instead, the socket's safety timeout fails the test.
        String received = RawExchange.send(endpoint(), "POST " + endpoint().getRawPath() + " HTTP/1.1\r\n"
                + "Host: " + endpoint().getAuthority() + "\r\nContent-Type: " + TEXT_XML + "\r\n"
                + "SOAPAction: \"" + NS + "WriteString\"\r\nExpect: 100-continue\r\n"
                + "Content-Length: " + MAX_REQUEST_BYTES * 3 + "\r\nConnection: close\r\n\r\n");

        assertTrue(received.startsWith("HTTP/1.1 500 ") || received.startsWith("HTTP/1.1 100 "), received);
        assertTrue(received.contains("\r\n\r\n" + fault11Server(TOO_LARGE_FAULT)), received);
    }

    @Test
    void aPathBesideTheEndpointIs404() throws Exception {
        HttpResponse<byte[]> response = send(HttpRequest.newBuilder(endpoint().resolve("Other.asmx")).GET().build());

        assertEquals(404, response.statusCode());
    }

    @Test
    void anotherVerbOnTheEndpointIs405() throws Exception {
        HttpResponse<byte[]> response = send(HttpRequest.newBuilder(endpoint())
                .PUT(HttpRequest.BodyPublishers.ofString("x")).build());

        String message = "Request format is unrecognized.";
        assertAnswer(405, "text/html; charset=utf-8", "<!DOCTYPE html>\r\n<html>\r\n    <head>\r\n        <title>"
                + message + "</title>\r\n    </head>\r\n    <body bgcolor=\"white\">\r\n"
                + "        <h1>Server Error in '/' Application.<hr width=100% size=1 color=silver></h1>\r\n"
                + "        <h2> <i>" + message + "</i> </h2>\r\n    </body>\r\n</html>\r\n", response);
        // ASMX's 405 is an HttpException written by ASP.NET's error page, which adds no Allow (docs/wire-compatibility.md, Matched)
        assertEquals(Optional.empty(), response.headers().firstValue("Allow"));
    }

    private HttpRequest request(String binding, String operation, String key) {
        String value = "välue <&>";
        String valueOrBase64 = operation.equals("WriteString")
                ? value : Base64.getEncoder().encodeToString(new byte[] {0, 104, (byte) 255});
        return switch (binding) {
            case "SOAP 1.1" -> soap11(HttpRequest.newBuilder(endpoint()), operation)
                    .POST(HttpRequest.BodyPublishers.ofString(envelope(SOAP11, operation, key, valueOrBase64)))
                    .build();
            case "SOAP 1.2" -> HttpRequest.newBuilder(endpoint())
                    .header("Content-Type", "application/soap+xml; charset=utf-8")
                    .POST(HttpRequest.BodyPublishers.ofString(envelope(SOAP12, operation, key, valueOrBase64)))
                    .build();
            case "HTTP GET" -> HttpRequest.newBuilder(at("/" + operation + "?" + form(operation, key, value)))
                    .GET().build();
            case "HTTP POST" -> HttpRequest.newBuilder(at("/" + operation))
                    .header("Content-Type", FORM)
                    .POST(HttpRequest.BodyPublishers.ofString(form(operation, key, value)))
                    .build();
            default -> throw new IllegalArgumentException(binding);
        };
    }

    /** The HTTP bindings send bytes as one decimal {@code content} parameter per byte. */
    private static String form(String operation, String key, String value) {
        String encodedKey = "key=" + URLEncoder.encode(key, UTF_8);
        return operation.equals("WriteString")
                ? encodedKey + "&value=" + URLEncoder.encode(value, UTF_8)
                : encodedKey + "&content=0&content=104&content=255";
    }

    private static HttpRequest.Builder soap11(HttpRequest.Builder builder, String operation) {
        return builder.header("Content-Type", TEXT_XML).header("SOAPAction", "\"" + NS + operation + "\"");
    }

    private static String envelope(String soapNs, String operation, String key, String valueOrBase64) {
        String child = operation.equals("WriteString") ? "value" : "content";
        return XML_DECL + "<soap:Envelope xmlns:soap=\"" + soapNs + "\"><soap:Body>"
                + "<" + operation + " xmlns=\"" + NS + "\"><key>" + escape(key) + "</key>"
                + "<" + child + ">" + escape(valueOrBase64) + "</" + child + "></" + operation + ">"
                + "</soap:Body></soap:Envelope>";
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }

    private static String soapSuccess(String soapNs, String operation) {
        return XML_DECL + "<soap:Envelope xmlns:soap=\"" + soapNs + "\"" + XSI_XSD + "><soap:Body><" + operation
                + "Response xmlns=\"" + NS + "\"><" + operation + "Result>Success</" + operation + "Result></"
                + operation + "Response></soap:Body></soap:Envelope>";
    }

    private static String fault11Server(String reason) {
        return XML_DECL + "<soap:Envelope xmlns:soap=\"" + SOAP11 + "\"" + XSI_XSD + "><soap:Body><soap:Fault>"
                + "<faultcode>soap:Server</faultcode><faultstring>" + reason + "</faultstring><detail />"
                + "</soap:Fault></soap:Body></soap:Envelope>";
    }

    private static String statusSuccess() {
        return XML_DECL + "\r\n<Status xmlns=\"" + NS + "\">Success</Status>";
    }

    /** {@code suffix} (path info and/or query) appended to the endpoint's address. */
    private URI at(String suffix) {
        return URI.create(endpoint() + suffix);
    }

    private HttpResponse<byte[]> send(HttpRequest request) throws IOException, InterruptedException {
        return http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    }

    private static void assertAnswer(int status, String contentType, String body, HttpResponse<byte[]> response) {
        assertEquals(status, response.statusCode(), () -> new String(response.body(), UTF_8));
        assertMediaType(contentType, response);
        assertEquals(body, new String(response.body(), UTF_8));
        assertArrayEquals(body.getBytes(UTF_8), response.body());
    }

    private static void assertMediaType(String expected, HttpResponse<?> response) {
        assertEquals(Optional.of(mediaType(expected)),
                response.headers().firstValue("Content-Type").map(EndpointWireTest::mediaType));
    }

    private static String mediaType(String contentType) {
        return contentType.replaceAll("\\s*;\\s*", ";").toLowerCase(Locale.ROOT);
    }

    private static int count(String text, String part) {
        int found = 0;
        for (int at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length())) {
            found++;
        }
        return found;
    }
}
