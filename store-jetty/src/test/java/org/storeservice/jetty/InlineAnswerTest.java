package org.storeservice.jetty;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.eclipse.jetty.http.HttpTester;
import org.eclipse.jetty.io.ArrayByteBufferPool;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.LocalConnector;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.GracefulHandler;
import org.eclipse.jetty.util.thread.Invocable.InvocationType;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.storage.StoredEntry;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.StoreCodec;

/**
 * Which requests are answered where Jetty called the handler (the selector thread, for a non-blocking
 * handler) and which are handed to the server's executor, with a real codec and store over Jetty's in-memory
 * connector. "Inline" is asserted on thread identity: the storage is called on the thread Jetty called the
 * handler on, while that call is still running, and no hand-off reached the executor.
 */
class InlineAnswerTest {
    private static final String NS = "http://tempuri.org/";
    private static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
    private static final String SOAP12 = "http://www.w3.org/2003/05/soap-envelope";
    private static final String XML_DECL = "<?xml version=\"1.0\" encoding=\"utf-8\"?>";

    /** Whether this thread is inside the handler's {@code handle} call. */
    private final ThreadLocal<Boolean> insideHandler = ThreadLocal.withInitial(() -> false);
    private final ThreadRecordingStorage storage = new ThreadRecordingStorage();
    private final HandOffCountingPool threads = new HandOffCountingPool();
    private final ArrayByteBufferPool.Tracking buffers = new ArrayByteBufferPool.Tracking();
    private final CountDownLatch handlerReturned = new CountDownLatch(1);
    private Server server;
    private LocalConnector connector;
    private StoreHandler handler;

    private void start(CodecLimits limits) throws Exception {
        StoreCodec codec = StoreCodec.builder(DefaultStore.of(storage)).limits(limits).build();
        handler = new StoreHandler(codec);
        server = new Server(threads);
        connector = new LocalConnector(server, null, null, buffers, -1, new HttpConnectionFactory());
        server.addConnector(connector);
        server.setHandler(new GracefulHandler(
                new ThreadMarkingHandler(handler, insideHandler, handlerReturned::countDown)));
        server.start();
    }

    private void start() throws Exception {
        start(CodecLimits.defaults());
    }

    @AfterEach
    void stop() throws Exception {
        if (server != null) {
            server.stop();
            // Every chunk of every request was given back: a chunk kept would keep its pooled buffer.
            assertEquals(0, buffers.getLeaks().size(), buffers::dumpLeaks);
        }
    }

    @Test
    void aStoreThatNeverBlocksMakesTheHandlerNonBlocking() throws Exception {
        start();
        assertEquals(InvocationType.NON_BLOCKING, handler.getInvocationType());
        assertEquals(InvocationType.NON_BLOCKING, server.getInvocationType());
    }

    @Test
    void soap11WriteStringIsAnsweredInline() throws Exception {
        start();
        HttpTester.Response response = send(soap(SOAP11, "WriteString", "k11", "v"));

        assertEquals(200, response.getStatus(), response.getContent());
        assertEquals(soapResponse(SOAP11, "WriteString"), response.getContent());
        assertEquals("v", stored("k11").text());
        assertInline();
    }

    @Test
    void soap12WriteBytesIsAnsweredInline() throws Exception {
        start();
        HttpTester.Response response = send(soap(SOAP12, "WriteBytes", "k12", Base64.getEncoder().encodeToString(new byte[] {0, 1, 2})));

        assertEquals(200, response.getStatus(), response.getContent());
        assertEquals(soapResponse(SOAP12, "WriteBytes"), response.getContent());
        assertArrayEquals(new byte[] {0, 1, 2}, stored("k12").bytes());
        assertInline();
    }

    @Test
    void httpGetIsAnsweredInline() throws Exception {
        start();
        HttpTester.Response response = send("GET /API/Store.asmx/WriteString?key=kg&value=vg HTTP/1.1\r\nHost: localhost\r\n\r\n");

        assertEquals(200, response.getStatus(), response.getContent());
        assertEquals(XML_DECL + "\r\n<Status xmlns=\"" + NS + "\">Success</Status>", response.getContent());
        assertEquals("vg", stored("kg").text());
        assertInline();
    }

    @Test
    void httpPostIsAnsweredInline() throws Exception {
        start();
        HttpTester.Response response = send(post("/API/Store.asmx/WriteBytes", "application/x-www-form-urlencoded",
                "key=kp&content=104&content=105"));

        assertEquals(200, response.getStatus(), response.getContent());
        assertArrayEquals("hi".getBytes(UTF_8), stored("kp").bytes());
        assertInline();
    }

    @Test
    void metadataPagesAreAnsweredInline() throws Exception {
        start();
        Map<String, String> pages = Map.of(
                "?WSDL", "location=\"http://example.org/API/Store.asmx\"",
                "?disco", "http://example.org/API/Store.asmx?wsdl",
                "", "WriteString",
                "?op=WriteBytes", "WriteBytes");
        for (Map.Entry<String, String> page : pages.entrySet()) {
            HttpTester.Response response = send("GET /API/Store.asmx" + page.getKey() + " HTTP/1.1\r\nHost: example.org\r\n\r\n");

            assertEquals(200, response.getStatus(), page.getKey());
            assertTrue(response.getContent().contains(page.getValue()), page.getKey() + ": " + response.getContent());
        }
        assertEquals(0, threads.handOffs.get(), "no request was handed off");
    }

    @Test
    void aBodyStillArrivingIsAnsweredWhereItsRestArrivesWithoutAHandOff() throws Exception {
        // The handler returns without waiting; the rest of the body completes the request where Jetty delivers
        // it, and a small body held in memory with a store that never blocks is answered right there.
        start();
        String request = soap(SOAP11, "WriteString", "split", "two parts");
        int headersEnd = request.indexOf("\r\n\r\n") + 4;
        LocalConnector.LocalEndPoint endPoint = connector.connect();

        endPoint.addInput(request.substring(0, headersEnd + 10)); // headers and the body's first bytes
        assertTrue(handlerReturned.await(10, TimeUnit.SECONDS), "the handler was called");
        endPoint.addInput(request.substring(headersEnd + 10));
        HttpTester.Response response = HttpTester.parseResponse(endPoint.getResponse());

        assertEquals(200, response.getStatus(), response.getContent());
        assertEquals("two parts", stored("split").text());
        assertAnsweredAfterTheHandlerReturnedWithoutAHandOff();
    }

    @Test
    void aBodyOverTheInlineBoundIsHandedOffAndAnswered() throws Exception {
        start();
        String value = "x".repeat(StoreHandler.MAX_INLINE_BODY_BYTES);
        HttpTester.Response response = send(soap(SOAP11, "WriteString", "large", value));

        assertEquals(200, response.getStatus(), response.getContent());
        assertEquals(value, stored("large").text());
        assertHandedOff();
    }

    @Test
    void aHandOffThePoolRefusesIsAnswered503AndStoresNothing() throws Exception {
        start();
        threads.full = true;

        HttpTester.Response response = send(soap(SOAP11, "WriteString", "refused", "x".repeat(StoreHandler.MAX_INLINE_BODY_BYTES)));

        assertEquals(503, response.getStatus());
        assertEquals("Service Unavailable", response.getContent());
        assertEquals(Optional.empty(), storage.get("refused"));
        assertEquals(1, threads.handOffs.get());

        threads.full = false; // the server goes on serving once a thread is free
        HttpTester.Response later = send(soap(SOAP11, "WriteString", "later", "x".repeat(StoreHandler.MAX_INLINE_BODY_BYTES)));
        assertEquals(200, later.getStatus(), later.getContent());
    }

    @Test
    void aBodyExactlyAtTheInlineBoundIsAnsweredInlineAndOneByteMoreIsHandedOff() throws Exception {
        start();
        send(soapOfLength(StoreHandler.MAX_INLINE_BODY_BYTES, "at-bound"));
        assertInline();

        send(soapOfLength(StoreHandler.MAX_INLINE_BODY_BYTES + 1, "past-bound"));
        assertEquals(1, threads.handOffs.get());
        assertTrue(stored("past-bound").text().startsWith("y"));
    }

    @Test
    void aSixtyFourKibWriteBytesIsAnsweredInline() throws Exception {
        start();
        byte[] value = new byte[64 * 1024];
        new Random(64).nextBytes(value);
        String request = soap(SOAP11, "WriteBytes", "k64", Base64.getEncoder().encodeToString(value));

        HttpTester.Response response = send(request);

        assertEquals(200, response.getStatus(), response.getContent());
        assertArrayEquals(value, stored("k64").bytes());
        assertInline();
        int bodyBytes = bodyOf(request).length();
        assertTrue(bodyBytes > 4 * value.length / 3 && bodyBytes <= StoreHandler.MAX_INLINE_BODY_BYTES, "body: " + bodyBytes);
    }

    @Test
    void contentBeforeItsKeyInABodyAtTheInlineBoundFitsTheSpoolsMemoryAndIsAnsweredInline() throws Exception {
        // Base64 decodes to at most three bytes for every four chars: a body of four thirds of the spool's memory holds
        // no more content than that memory, so the spool never reaches its file on the selector thread.
        CodecLimits limits = CodecLimits.builder().spoolMemoryBytes(600).build();
        assertEquals(800, StoreHandler.maxInlineBodyBytes(limits));
        start(limits);
        String prefix = XML_DECL + "<soap:Envelope xmlns:soap=\"" + SOAP11 + "\"><soap:Body><WriteBytes xmlns=\"" + NS
                + "\"><content>";
        String suffix = "</content><key>spooled</key></WriteBytes></soap:Body></soap:Envelope>";
        int room = 800 - prefix.length() - suffix.length();
        byte[] value = new byte[room / 4 * 3];
        new Random(600).nextBytes(value);
        String base64 = Base64.getEncoder().encodeToString(value);
        String body = prefix + base64 + " ".repeat(room - base64.length()) + suffix;
        assertEquals(800, body.length());

        HttpTester.Response response = send(post("/API/Store.asmx", "text/xml; charset=utf-8", body,
                "SOAPAction: \"" + NS + "WriteBytes\"\r\n"));

        assertEquals(200, response.getStatus(), response.getContent());
        assertArrayEquals(value, stored("spooled").bytes());
        assertInline();
    }

    @Test
    void contentBeforeItsKeyLargerThanTheSpoolsMemoryIsHandedOffSoItsFileIsWrittenOffTheSelector() throws Exception {
        start(CodecLimits.builder().spoolMemoryBytes(600).build());
        String content = Base64.getEncoder().encodeToString(new byte[601]);
        String body = XML_DECL + "<soap:Envelope xmlns:soap=\"" + SOAP11 + "\"><soap:Body><WriteBytes xmlns=\"" + NS
                + "\"><content>" + content + "</content><key>spooled</key></WriteBytes></soap:Body></soap:Envelope>";

        HttpTester.Response response = send(post("/API/Store.asmx", "text/xml; charset=utf-8", body,
                "SOAPAction: \"" + NS + "WriteBytes\"\r\n"));

        assertEquals(200, response.getStatus(), response.getContent());
        assertArrayEquals(new byte[601], stored("spooled").bytes());
        assertHandedOff();
    }

    @Test
    void theInlineBoundFollowsTheSpoolUpTo128Kib() {
        assertEquals(128 * 1024, StoreHandler.maxInlineBodyBytes(CodecLimits.defaults()));
        assertEquals(StoreHandler.MAX_INLINE_BODY_BYTES,
                StoreHandler.maxInlineBodyBytes(CodecLimits.builder().spoolMemoryBytes(1 << 20).build()));
        assertEquals(0, StoreHandler.maxInlineBodyBytes(CodecLimits.builder().spoolMemoryBytes(0).build()));
    }

    @Test
    void theSizeLimitHoldsInlineWithContentLength() throws Exception {
        start(CodecLimits.builder().maxRequestBytes(1000).build());

        HttpTester.Response atLimit = send(soapOfLength(1000, "at-limit"));
        assertEquals(200, atLimit.getStatus(), atLimit.getContent());

        HttpTester.Response overLimit = send(soapOfLength(1001, "over-limit"));
        assertEquals(500, overLimit.getStatus());
        assertTrue(overLimit.getContent().contains("Maximum request length exceeded."), overLimit.getContent());
        assertEquals(Optional.empty(), storage.get("over-limit"));
        assertEquals(0, threads.handOffs.get(), "both answered inline");
    }

    @Test
    void theSizeLimitHoldsInlineWhenChunked() throws Exception {
        start(CodecLimits.builder().maxRequestBytes(1000).build());

        HttpTester.Response atLimit = send(chunked(soapOfLength(1000, "at-limit")));
        assertEquals(200, atLimit.getStatus(), atLimit.getContent());

        HttpTester.Response overLimit = send(chunked(soapOfLength(1001, "over-limit")));
        assertEquals(500, overLimit.getStatus());
        assertTrue(overLimit.getContent().contains("Maximum request length exceeded."), overLimit.getContent());
        assertEquals(Optional.empty(), storage.get("over-limit"));
        assertEquals(0, threads.handOffs.get(), "both answered inline");
    }

    @Test
    void aClientExpectingContinueGetsItWhenTheBodyIsAskedForAndThenTheAnswer() throws Exception {
        start();
        String request = soap(SOAP11, "WriteString", "continued", "after 100");
        int headersEnd = request.indexOf("\r\n\r\n") + 2;
        LocalConnector.LocalEndPoint endPoint = connector.connect();

        endPoint.addInput(request.substring(0, headersEnd) + "Expect: 100-continue\r\n\r\n");
        String interim = endPoint.getResponse(true, 10, TimeUnit.SECONDS);
        assertTrue(interim != null && interim.startsWith("HTTP/1.1 100 "), interim);
        assertTrue(handlerReturned.await(10, TimeUnit.SECONDS), "the handler returned without the body");
        endPoint.addInput(request.substring(headersEnd + 2));
        HttpTester.Response response = HttpTester.parseResponse(endPoint.getResponse());

        assertEquals(200, response.getStatus(), response.getContent());
        assertEquals("after 100", stored("continued").text());
        assertAnsweredAfterTheHandlerReturnedWithoutAHandOff();
    }

    @Test
    void aStorageThatMayBlockIsCalledOnThePoolNeverWhereTheHandlerRuns() throws Exception {
        storage.neverBlocks = false;
        start();
        assertEquals(InvocationType.NON_BLOCKING, handler.getInvocationType());

        HttpTester.Response text = send(soap(SOAP11, "WriteString", "blocking", "v"));
        HttpTester.Response bytes = send(soap(SOAP12, "WriteBytes", "blocking-bytes", "AAEC"));

        assertEquals(soapResponse(SOAP11, "WriteString"), text.getContent());
        assertEquals(soapResponse(SOAP12, "WriteBytes"), bytes.getContent());
        assertEquals("v", stored("blocking").text());
        assertArrayEquals(new byte[] {0, 1, 2}, stored("blocking-bytes").bytes());
        assertEquals(0, threads.handOffs.get(), "both bodies were decoded where they arrived");
        assertEquals(List.of(false, false), storage.calledInsideHandler, "each write ran on the pool, not in the handler's call");
    }

    @Test
    void aQueuedWriteIsAnsweredFromTheThreadThatCompletesItAndNoThreadWaitsMeanwhile() throws Exception {
        CompletableFuture<Boolean> commit = new CompletableFuture<>();
        storage.queued = commit;
        start();
        LocalConnector.LocalEndPoint endPoint = connector.executeRequest(soap(SOAP11, "WriteString", "queued", "later"));

        assertQueuedInsideTheHandlerAndUnanswered(endPoint);

        HttpTester.Response response = committedAnswer(commit, endPoint);

        assertEquals(200, response.getStatus(), response.getContent());
        assertEquals(soapResponse(SOAP11, "WriteString"), response.getContent());
    }

    @Test
    void aQueuedWriteBytesIsReadWhereItsBodyEndedAndAnsweredFromTheThreadThatCommitsIt() throws Exception {
        CompletableFuture<Boolean> commit = new CompletableFuture<>();
        storage.queued = commit;
        storage.neverBlocks = false; // as SQLite: writes may block, a small one is queued
        start();
        byte[] value = new byte[64 * 1024];
        new Random(27).nextBytes(value);
        LocalConnector.LocalEndPoint endPoint = connector.executeRequest(
                soap(SOAP12, "WriteBytes", "queued-bytes", Base64.getEncoder().encodeToString(value)));

        assertQueuedInsideTheHandlerAndUnanswered(endPoint);
        assertArrayEquals(value, storage.queuedContent, "the content was read there");

        HttpTester.Response response = committedAnswer(commit, endPoint);

        assertEquals(200, response.getStatus(), response.getContent());
        assertEquals(soapResponse(SOAP12, "WriteBytes"), response.getContent());
    }

    @Test
    void aQueuedWriteThatFailsIsAnsweredError() throws Exception {
        storage.queued = CompletableFuture.failedFuture(new IOException("disk full"));
        start();

        HttpTester.Response response = send("GET /API/Store.asmx/WriteString?key=kf&value=vf HTTP/1.1\r\nHost: localhost\r\n\r\n");

        assertEquals(200, response.getStatus(), response.getContent());
        assertEquals(XML_DECL + "\r\n<Status xmlns=\"" + NS + "\">Error</Status>", response.getContent());
    }

    private void assertQueuedInsideTheHandlerAndUnanswered(LocalConnector.LocalEndPoint endPoint) throws Exception {
        assertTrue(handlerReturned.await(10, TimeUnit.SECONDS), "the handler returned");
        assertEquals(List.of(true), storage.calledInsideHandler, "the write was queued inside the handler's call");
        assertEquals("", endPoint.takeOutputString(), "no answer before the write is committed");
        assertEquals(0, threads.handOffs.get());
    }

    /** Completes {@code commit} from a thread of its own, as SQLite's writer would, and takes the answer then written. */
    private static HttpTester.Response committedAnswer(CompletableFuture<Boolean> commit,
            LocalConnector.LocalEndPoint endPoint) throws Exception {
        Thread committer = new Thread(() -> commit.complete(true), "test-committer");
        committer.start();
        committer.join();
        return HttpTester.parseResponse(endPoint.getResponse());
    }

    private void assertInline() {
        assertEquals(0, threads.handOffs.get(), "no request was handed off");
        assertTrue(!storage.calledInsideHandler.isEmpty(), "the storage was called");
        assertFalse(storage.calledInsideHandler.contains(false), "the storage ran inside the handler's call");
    }

    private void assertAnsweredAfterTheHandlerReturnedWithoutAHandOff() {
        assertEquals(0, threads.handOffs.get(), "no request was handed off");
        assertEquals(List.of(false), storage.calledInsideHandler, "the storage ran after the handler returned");
    }

    private void assertHandedOff() {
        assertEquals(1, threads.handOffs.get(), "the request was handed off");
        assertEquals(List.of(false), storage.calledInsideHandler, "the storage ran after the handler returned");
    }

    private StoredEntry stored(String key) throws IOException {
        return storage.get(key).orElseThrow(() -> new AssertionError("nothing stored under " + key));
    }

    private HttpTester.Response send(String rawRequest) throws Exception {
        HttpTester.Response response = HttpTester.parseResponse(connector.getResponse(rawRequest, 10, TimeUnit.SECONDS));
        assertTrue(response != null, "no response");
        return response;
    }

    private static String soap(String soapNs, String operation, String key, String valueOrBase64) {
        String child = operation.equals("WriteString") ? "value" : "content";
        String body = XML_DECL + "<soap:Envelope xmlns:soap=\"" + soapNs + "\"><soap:Body>"
                + "<" + operation + " xmlns=\"" + NS + "\"><key>" + key + "</key>"
                + "<" + child + ">" + valueOrBase64 + "</" + child + "></" + operation + ">"
                + "</soap:Body></soap:Envelope>";
        return soapNs.equals(SOAP11)
                ? post("/API/Store.asmx", "text/xml; charset=utf-8", body, "SOAPAction: \"" + NS + operation + "\"\r\n")
                : post("/API/Store.asmx", "application/soap+xml; charset=utf-8", body);
    }

    /** A SOAP 1.1 WriteString whose body is exactly {@code bodyBytes} long, its value padded with 'y'. */
    private static String soapOfLength(int bodyBytes, String key) {
        String empty = bodyOf(soap(SOAP11, "WriteString", key, ""));
        return soap(SOAP11, "WriteString", key, "y".repeat(bodyBytes - empty.length()));
    }

    private static String bodyOf(String request) {
        return request.substring(request.indexOf("\r\n\r\n") + 4);
    }

    private static String post(String path, String contentType, String body) {
        return post(path, contentType, body, "");
    }

    private static String post(String path, String contentType, String body, String moreHeaders) {
        return "POST " + path + " HTTP/1.1\r\nHost: localhost\r\nContent-Type: " + contentType + "\r\n" + moreHeaders
                + "Content-Length: " + body.getBytes(UTF_8).length + "\r\n\r\n" + body;
    }

    /** The same request with its body sent in 100-byte chunks instead of with a Content-Length. */
    private static String chunked(String request) {
        String head = request.substring(0, request.indexOf("\r\n\r\n"));
        String body = bodyOf(request);
        StringBuilder out = new StringBuilder(head.replaceFirst("Content-Length: \\d+", "Transfer-Encoding: chunked"))
                .append("\r\n\r\n");
        for (int i = 0; i < body.length(); i += 100) {
            String chunk = body.substring(i, Math.min(body.length(), i + 100));
            out.append(Integer.toHexString(chunk.length())).append("\r\n").append(chunk).append("\r\n");
        }
        return out.append("0\r\n\r\n").toString();
    }

    private static String soapResponse(String soapNs, String operation) {
        return XML_DECL + "<soap:Envelope xmlns:soap=\"" + soapNs + "\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
                + " xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><soap:Body><" + operation + "Response xmlns=\"" + NS + "\">"
                + "<" + operation + "Result>Success</" + operation + "Result></" + operation + "Response></soap:Body></soap:Envelope>";
    }

    /** Records whether each write ran inside the handler's call; says its writes never block unless told otherwise. */
    private final class ThreadRecordingStorage extends ForwardingStorage {
        final List<Boolean> calledInsideHandler = new CopyOnWriteArrayList<>();
        volatile boolean neverBlocks = true;
        /** When set, what every text or byte write answers at once, instead of writing: a queued write's future. */
        volatile CompletableFuture<Boolean> queued;
        /** What the queued byte write read. */
        volatile byte[] queuedContent;

        @Override
        public CompletionStage<Boolean> putTextAsync(String key, String value, OverwritePolicy policy,
                Executor blockingWork) {
            if (queued == null) {
                return super.putTextAsync(key, value, policy, blockingWork);
            }
            calledInsideHandler.add(insideHandler.get());
            return queued;
        }

        /** As SQLite's small values: read here, then queued; {@link #queued} is the write's future. */
        @Override
        public CompletionStage<Boolean> putBytesAsync(String key, InputStream content, OverwritePolicy policy,
                Executor blockingWork) {
            if (queued == null) {
                return super.putBytesAsync(key, content, policy, blockingWork);
            }
            calledInsideHandler.add(insideHandler.get());
            try {
                queuedContent = content.readAllBytes();
            } catch (IOException e) {
                return CompletableFuture.failedFuture(e);
            }
            return queued;
        }

        @Override
        public boolean writesNeverBlock() {
            return neverBlocks;
        }

        @Override
        public boolean putText(String key, String value, OverwritePolicy policy) throws IOException {
            calledInsideHandler.add(insideHandler.get());
            return super.putText(key, value, policy);
        }

        @Override
        public boolean putBytes(String key, InputStream content, OverwritePolicy policy) throws IOException {
            calledInsideHandler.add(insideHandler.get());
            return super.putBytes(key, content, policy);
        }
    }


    /** The server's thread pool, counting the requests the handler hands off to it. */
    private static final class HandOffCountingPool extends QueuedThreadPool {
        final AtomicInteger handOffs = new AtomicInteger();
        /** Refuses hand-offs, as a pool with every thread busy and its queue full does. */
        volatile boolean full;

        @Override
        public void execute(Runnable job) {
            if (job instanceof BodyExchange.HandOff) {
                handOffs.incrementAndGet();
                if (full) {
                    throw new RejectedExecutionException("test: no thread free");
                }
            }
            super.execute(job);
        }
    }
}
