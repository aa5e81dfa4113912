package org.storeservice.codec;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.storage.MemoryStorage;

/** The observer seam: each binding, operation and outcome as the codec reports it, and answers left unchanged. */
class RequestObserverTest {
    private final MemoryStorage storage = new MemoryStorage();
    private final List<CompletedRequest> completed = new ArrayList<>();
    private final StoreCodec observed = StoreCodec.builder(DefaultStore.builder(storage).build())
            .observer(completed::add).build();
    private final StoreCodec plain = StoreCodec.builder(DefaultStore.builder(storage).build()).build();

    /** Answers {@code request} with the observed codec, checks the answer is the plain codec's, returns the report. */
    private CompletedRequest observe(CodecRequest.Builder request, String body) {
        CodecResponse answer = observed.handle(request.build());
        CodecResponse unobserved = plain.handle(request.body(new ByteArrayInputStream(body.getBytes(UTF_8))).build());
        assertEquals(unobserved.status(), answer.status());
        assertArrayEquals(unobserved.bodyBytes(), answer.bodyBytes());
        assertEquals(1, completed.size());
        CompletedRequest report = completed.remove(0);
        assertEquals(answer.status(), report.status());
        assertTrue(report.durationNanos() >= 0);
        return report;
    }

    private CompletedRequest observe(String method, String path, String rawQuery) {
        return observe(CodecRequest.builder(method, path).rawQuery(rawQuery), "");
    }

    private static void assertKind(Binding binding, String operation, Outcome outcome, CompletedRequest report) {
        assertEquals(new RequestKind(binding, operation, outcome), report.kind(), report.toString());
    }

    @Test
    void soapWritesByVersionOperationAndResult() {
        String envelope = Fixture.soap11(Fixture.writeString("k", "v"));
        CompletedRequest report = observe(Fixture.soap11Post("WriteString", envelope), envelope);
        assertKind(Binding.SOAP11, "WriteString", Outcome.SUCCESS, report);
        assertEquals(envelope.getBytes(UTF_8).length, report.requestBodyBytes());

        envelope = Fixture.soap12(Fixture.writeBytes("b", "aGk="));
        assertKind(Binding.SOAP12, "WriteBytes", Outcome.SUCCESS, observe(Fixture.soap12Post(envelope), envelope));

        envelope = Fixture.soap11(Fixture.writeString("", "v")); // an empty key: the store answers Error
        assertKind(Binding.SOAP11, "WriteString", Outcome.ERROR, observe(Fixture.soap11Post("WriteString", envelope), envelope));
    }

    @Test
    void soapFaultsAreFaultsInTheirVersion() {
        String broken = "<soap:Envelope xmlns:soap=\"" + Fixture.SOAP11 + "\"><soap:Body><WriteString";
        CompletedRequest report = observe(Fixture.soap11Post("WriteString", broken), broken);
        assertKind(Binding.SOAP11, "none", Outcome.FAULT, report);
        assertEquals(400, report.status());

        String broken12 = "<soap12:Envelope xmlns:soap12=\"" + Fixture.SOAP12 + "\"><soap12:Body><WriteBytes";
        assertKind(Binding.SOAP12, "none", Outcome.FAULT, observe(Fixture.soap12Post(broken12), broken12));
    }

    @Test
    void httpBindingsByOperationFromThePath() {
        assertKind(Binding.HTTP_GET, "WriteString", Outcome.SUCCESS, observe("GET", Fixture.PATH + "/WriteString", "key=a&value=b"));
        assertKind(Binding.HTTP_GET, "WriteString", Outcome.SERVER_ERROR, observe("GET", Fixture.PATH + "/WriteString", "key=a"));
        assertKind(Binding.HTTP_GET, "none", Outcome.SERVER_ERROR, observe("GET", Fixture.PATH + "/writestring", "key=a&value=b"));
        String form = "key=c&content=104&content=105";
        CompletedRequest post = observe(Fixture.post(Fixture.PATH + "/WriteBytes", form)
                .header("Content-Type", "application/x-www-form-urlencoded"), form);
        assertKind(Binding.HTTP_POST, "WriteBytes", Outcome.SUCCESS, post);
        assertEquals(form.length(), post.requestBodyBytes());
    }

    @Test
    void metadataPagesAndRequestsNoBindingTakes() {
        assertKind(Binding.METADATA, "wsdl", Outcome.SUCCESS, observe("GET", Fixture.PATH, "WSDL"));
        assertKind(Binding.METADATA, "disco", Outcome.SUCCESS, observe("GET", Fixture.PATH, "disco"));
        assertKind(Binding.METADATA, "help", Outcome.SUCCESS, observe("GET", Fixture.PATH, null));
        assertKind(Binding.METADATA, "help", Outcome.SUCCESS, observe("GET", Fixture.PATH, "op=WriteString"));
        assertKind(Binding.NONE, "none", Outcome.CLIENT_ERROR, observe("PUT", Fixture.PATH, null));
        assertKind(Binding.NONE, "none", Outcome.CLIENT_ERROR, observe("GET", "/other", null));
        assertKind(Binding.NONE, "none", Outcome.SERVER_ERROR, observe("DELETE", Fixture.PATH + "/WriteString", null));
    }

    @Test
    void aBodyRefusedOnItsLengthCountsItsDeclaredLength() {
        CodecRequest.Builder request = Fixture.soap11Post("WriteString", "")
                .header("Content-Length", "" + (CodecLimits.DEFAULT_MAX_REQUEST_BYTES + 1));
        CompletedRequest report = observe(request, "");
        assertKind(Binding.SOAP11, "none", Outcome.FAULT, report);
        assertEquals(CodecLimits.DEFAULT_MAX_REQUEST_BYTES + 1, report.requestBodyBytes());
    }

    @Test
    void aFailingObserverDoesNotChangeTheAnswer() throws Exception {
        StoreCodec failing = StoreCodec.builder(DefaultStore.builder(storage).build())
                .observer(request -> {
                    throw new IllegalStateException("observer bug");
                }).build();
        CodecResponse answer = failing.handle(Fixture.get(Fixture.PATH + "/WriteString", "key=f&value=g").build());
        assertEquals(200, answer.status());
        assertEquals("g", storage.get("f").orElseThrow().text());
    }

    @Test
    void describeNeedsNoObserver() {
        CodecRequest request = Fixture.get(Fixture.PATH + "/WriteBytes", "key=x&content=1").build();
        assertEquals(new RequestKind(Binding.HTTP_GET, "WriteBytes", Outcome.SUCCESS),
                plain.describe(request, plain.handle(request)));
    }
}
