package org.storeservice.jetty;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.util.Callback;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.stubbing.Answer;
import org.storeservice.api.Store;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.CodecRequest;
import org.storeservice.codec.CodecResponse;
import org.storeservice.codec.StoreCodec;

/**
 * The adapter on its own: Jetty's in-memory connector in front, a faked codec behind, so that what is
 * checked is what the handler hands over and writes out, not what the codec decides. (The faked codec's body
 * buffers come from a real codec: the buffer is the codec's, and collecting the body into it is the handler's job.)
 */
class StoreHandlerTest {
    private static final long LIMIT = 100;

    private final StoreCodec codec = mock(StoreCodec.class);
    private Server server;
    private LocalConnector connector;

    @BeforeEach
    void setUp() throws Exception {
        when(codec.matches(anyString())).thenAnswer(call -> {
            String path = call.getArgument(0);
            return path.equals("/API/Store.asmx") || path.startsWith("/API/Store.asmx/");
        });
        CodecLimits limits = CodecLimits.builder().maxRequestBytes(LIMIT).build();
        when(codec.limits()).thenReturn(limits);
        StoreCodec buffers = StoreCodec.builder(mock(Store.class)).limits(limits).build();
        when(codec.newRequestBodyBuffer(anyLong()))
                .thenAnswer(call -> buffers.newRequestBodyBuffer(call.getArgument(0)));
        server = new Server();
        connector = new LocalConnector(server);
        server.addConnector(connector);
        server.setHandler(new Handler.Sequence(new StoreHandler(codec), new HostHandler()));
        server.start();
    }

    /** The faked codec answers every request at once with what {@code answer} gives. */
    private void answerWith(Answer<CodecResponse> answer) {
        when(codec.handleAsync(any(), any()))
                .thenAnswer(call -> CompletableFuture.completedFuture(answer.answer(call)));
    }

    @AfterEach
    void tearDown() throws Exception {
        server.stop();
    }

    @Test
    void handsTheCodecMethodDecodedPathRawQuerySchemeHeadersAndBody() throws Exception {
        AtomicReference<CodecRequest> seen = new AtomicReference<>();
        AtomicReference<byte[]> body = new AtomicReference<>();
        answerWith(call -> {
            CodecRequest request = call.getArgument(0);
            seen.set(request);
            body.set(request.body().readAllBytes()); // the stream is only readable while the request runs
            return CodecResponse.builder(200).build();
        });

        HttpTester.Response response = send("POST /API/Store.asmx/Write%53tring?key=a%20b&value=c+d HTTP/1.1\r\n"
                + "Host: localhost\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\n"
                + "SOAPAction: \"http://tempuri.org/WriteString\"\r\n"
                + "X-Twice: one\r\n"
                + "X-Twice: two\r\n"
                + "Content-Length: 7\r\n"
                + "\r\n"
                + "k=v&x=y");

        assertEquals(200, response.getStatus());
        CodecRequest request = seen.get();
        assertEquals("POST", request.method());
        assertEquals("/API/Store.asmx/WriteString", request.path());
        assertEquals("key=a%20b&value=c+d", request.rawQuery());
        assertEquals("http", request.scheme());
        assertEquals("application/x-www-form-urlencoded", request.header("content-type"));
        assertEquals("\"http://tempuri.org/WriteString\"", request.header("SOAPAction"));
        assertEquals(List.of("one", "two"), request.headers("X-Twice"));
        assertEquals("localhost", request.header("Host"));
        assertArrayEquals("k=v&x=y".getBytes(UTF_8), body.get());
    }

    @Test
    void noQueryGivesAnEmptyRawQuery() throws Exception {
        AtomicReference<CodecRequest> seen = new AtomicReference<>();
        answerWith(call -> {
            seen.set(call.getArgument(0));
            return CodecResponse.builder(200).build();
        });

        send("GET /API/Store.asmx HTTP/1.1\r\nHost: localhost\r\n\r\n");

        assertEquals("", seen.get().rawQuery());
        assertEquals("GET", seen.get().method());
    }

    @Test
    void withoutAHostFieldTheCodecGetsTheRequestsAuthorityAsHost() throws Exception {
        AtomicReference<CodecRequest> seen = new AtomicReference<>();
        answerWith(call -> {
            seen.set(call.getArgument(0));
            return CodecResponse.builder(200).build();
        });

        // An absolute-form HTTP/1.0 request has an authority but no Host field, as HTTP/2's :authority does.
        send("GET http://example.org:8080/API/Store.asmx?WSDL HTTP/1.0\r\n\r\n");

        assertEquals("example.org:8080", seen.get().header("Host"));
    }

    @Test
    void writesStatusHeadersInOrderContentLengthAndBody() throws Exception {
        byte[] body = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<Status xmlns=\"http://tempuri.org/\">Success</Status>"
                .getBytes(UTF_8);
        answerWith(call -> CodecResponse.builder(500)
                .header("Cache-Control", "private")
                .header("Content-Type", "text/xml; charset=utf-8")
                .header("X-Order", "first")
                .header("X-Order", "second")
                .body(body)
                .build());

        HttpTester.Response response = send("GET /API/Store.asmx/WriteString?key=k&value=v HTTP/1.1\r\nHost: localhost\r\n\r\n");

        assertEquals(500, response.getStatus());
        assertArrayEquals(body, response.getContentBytes());
        assertEquals(String.valueOf(body.length), response.get("Content-Length"));
        assertEquals("text/xml; charset=utf-8", response.get("Content-Type"));
        List<String> order = new ArrayList<>();
        for (HttpField field : response) {
            if (List.of("Cache-Control", "Content-Type", "X-Order").contains(field.getName())) {
                order.add(field.getName() + ": " + field.getValue());
            }
        }
        assertEquals(List.of("Cache-Control: private", "Content-Type: text/xml; charset=utf-8",
                "X-Order: first", "X-Order: second"), order);
    }

    @Test
    void contentLengthIsTheBodysLengthWhateverTheCodecSays() throws Exception {
        answerWith(call -> CodecResponse.builder(200)
                .header("Content-Length", "999")
                .body("abc".getBytes(UTF_8))
                .build());

        HttpTester.Response response = send("GET /API/Store.asmx HTTP/1.1\r\nHost: localhost\r\n\r\n");

        assertEquals("3", response.get("Content-Length"));
        assertEquals("abc", response.getContent());
    }

    @Test
    void pathsOutsideTheEndpointGoToTheNextHandler() throws Exception {
        HttpTester.Response response = send("GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n");

        assertEquals(200, response.getStatus());
        assertEquals("host", response.getContent());
        verify(codec, never()).handleAsync(any(), any());
    }

    @Test
    void anUnexpectedCodecFailureIsAPlain500WithoutInternals() throws Exception {
        when(codec.handleAsync(any(), any())).thenThrow(new IllegalStateException("secret detail at com.example.Internal"));

        HttpTester.Response response = send("GET /API/Store.asmx?WSDL HTTP/1.1\r\nHost: localhost\r\n\r\n");

        assertEquals(500, response.getStatus());
        assertEquals("text/plain; charset=utf-8", response.get("Content-Type"));
        assertEquals("Internal Server Error", response.getContent());
    }

    @Test
    void aChunkedBodyIsCutOffOneBytePastTheCodecsLimit() throws Exception {
        AtomicReference<byte[]> body = new AtomicReference<>();
        answerWith(call -> {
            body.set(((CodecRequest) call.getArgument(0)).body().readAllBytes());
            return CodecResponse.builder(500).build();
        });

        HttpTester.Response response = send(chunked("x".repeat(1000)));

        assertEquals(500, response.getStatus());
        // One byte past the limit: enough for the codec to see it crossed and answer its own fault.
        assertEquals("x".repeat((int) LIMIT + 1), new String(body.get(), UTF_8));
    }

    @Test
    void aChunkedBodyExactlyAtTheLimitIsReadWhole() throws Exception {
        AtomicReference<byte[]> body = new AtomicReference<>();
        answerWith(call -> {
            body.set(((CodecRequest) call.getArgument(0)).body().readAllBytes());
            return CodecResponse.builder(200).build();
        });

        HttpTester.Response response = send(chunked("y".repeat((int) LIMIT)));

        assertEquals(200, response.getStatus());
        assertEquals("y".repeat((int) LIMIT), new String(body.get(), UTF_8));
    }

    @Test
    void aBodyArrivingTooSlowlyGets408AndNeverReachesTheCodec() throws Exception {
        // No grace, 1,000 B/s: one byte, then at least 50 ms later another, is far too slow.
        server.stop();
        server.setHandler(new StoreHandler(codec, 1000, Duration.ZERO));
        server.start();
        LocalConnector.LocalEndPoint endPoint = connector.connect();

        endPoint.addInput("POST /API/Store.asmx HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/xml\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n1\r\nz\r\n");
        Thread.sleep(50); // not asserted on: it only makes sure the next byte comes later than the rate allows
        endPoint.addInput("1\r\nz\r\n"); // and the body never ends
        HttpTester.Response response = HttpTester.parseResponse(endPoint.getResponse(false, 10, TimeUnit.SECONDS));

        assertEquals(408, response.getStatus());
        assertEquals("close", response.get("Connection"));
        verify(codec, never()).handleAsync(any(), any());
    }

    @Test
    void aTransferCodingOtherThanChunkedGets501AndNeverReachesTheCodec() throws Exception {
        HttpTester.Response response = send("POST /API/Store.asmx/WriteString HTTP/1.1\r\nHost: localhost\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: gzip, chunked\r\n\r\n"
                + "d\r\nkey=k&value=v\r\n0\r\n\r\n");

        assertEquals(501, response.getStatus());
        verify(codec, never()).handleAsync(any(), any());
    }

    @Test
    void chunkedAloneIsNoUnknownCoding() throws Exception {
        answerWith(call -> CodecResponse.builder(200).build());

        HttpTester.Response response = send("POST /API/Store.asmx/WriteString HTTP/1.1\r\nHost: localhost\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: Chunked\r\n\r\n"
                + "d\r\nkey=k&value=v\r\n0\r\n\r\n");

        assertEquals(200, response.getStatus());
    }

    @Test
    void rejectsANullCodecAndANegativeRate() {
        assertThrows(NullPointerException.class, () -> new StoreHandler(null));
        assertThrows(IllegalArgumentException.class, () -> new StoreHandler(codec, -1));
    }

    private HttpTester.Response send(String rawRequest) throws Exception {
        HttpTester.Response response = HttpTester.parseResponse(connector.getResponse(rawRequest));
        assertTrue(response != null, "no response");
        return response;
    }

    private static String chunked(String body) {
        StringBuilder request = new StringBuilder("POST /API/Store.asmx HTTP/1.1\r\nHost: localhost\r\n"
                + "Content-Type: text/xml; charset=utf-8\r\nTransfer-Encoding: chunked\r\n\r\n");
        for (int i = 0; i < body.length(); i += 64) {
            String chunk = body.substring(i, Math.min(body.length(), i + 64));
            request.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk).append("\r\n");
        }
        return request.append("0\r\n\r\n").toString();
    }

    /** A host's own handler, mounted after the Store handler. */
    private static final class HostHandler extends Handler.Abstract {
        @Override
        public boolean handle(Request request, Response response, Callback callback) {
            response.setStatus(200);
            response.write(true, ByteBuffer.wrap("host".getBytes(UTF_8)), callback);
            return true;
        }
    }
}
