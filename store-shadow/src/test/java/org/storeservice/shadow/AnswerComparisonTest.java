package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AnswerComparisonTest {
    private final AnswerComparison comparison = new AnswerComparison(URI.create("http://old.example/API/Store.asmx"),
            URI.create("http://127.0.0.1:8081/API/Store.asmx"));

    private static Answer answer(int status, String contentType, String body) {
        byte[] bytes = body.getBytes(UTF_8);
        return new Answer(status, contentType == null ? List.of() : List.of(Map.entry("Content-Type", contentType)),
                bytes, bytes.length, AnswerCopy.sha256Of(bytes), null);
    }

    @Test
    void eachServicesOwnHostIsNormalised() {
        assertEquals(List.of(), comparison.differences(
                answer(200, "text/xml; charset=utf-8", "<soap:address location=\"http://old.example/API/Store.asmx\" />"),
                answer(200, "text/xml; charset=utf-8", "<soap:address location=\"http://127.0.0.1:8081/API/Store.asmx\" />")));
    }

    @Test
    void statusHeadersAndBodyAreCompared() {
        List<String> found = comparison.differences(
                answer(200, "text/xml; charset=utf-8", "<Status>Success</Status>"),
                answer(500, "text/plain; charset=utf-8", "<Status>Error</Status>"));
        assertEquals(List.of("status: primary 200, shadow 500",
                "Content-Type: primary \"text/xml; charset=utf-8\", shadow \"text/plain; charset=utf-8\"",
                "body differs at byte 8 (primary 24 bytes, shadow 22 bytes, hosts normalised): primary \"<Status>Success</Status>\","
                        + " shadow \"<Status>Error</Status>\""), found);
    }

    @Test
    void asmxsEmptyBodyOnA400AgainstStoresFaultIsADocumentedChoice() {
        assertEquals(List.of(), comparison.differences(answer(400, null, ""),
                answer(400, "text/xml; charset=utf-8", "<soap:Envelope>...fault...</soap:Envelope>")));
        assertEquals(List.of("status: primary 400, shadow 500"), comparison.differences(answer(400, null, ""),
                answer(500, null, "")), "not when the statuses differ");
    }

    @Test
    void htmlErrorPagesAreComparedByTheirTitles() {
        String asmx = "<html><head><title>Request format is unrecognized.</title><style>yellow</style></head><body>...";
        String store = "<!DOCTYPE html><html><head><title>Request format is unrecognized.</title></head><body><h1>...";
        assertEquals(List.of(), comparison.differences(answer(405, "text/html; charset=utf-8", asmx),
                answer(405, "text/html; charset=utf-8", store)));
        List<String> found = comparison.differences(answer(500, "text/html", asmx),
                answer(500, "text/html", store.replace("Request format is unrecognized.", "Another error")));
        assertEquals(1, found.size(), found.toString());
    }

    @Test
    void answersLongerThanTheProxyKeepsAreComparedByLengthAndHash() {
        byte[] kept = "abc".getBytes(UTF_8);
        Answer a = new Answer(200, List.of(), kept, 10, new byte[] {1}, null);
        Answer b = new Answer(200, List.of(), kept, 10, new byte[] {1}, null);
        Answer c = new Answer(200, List.of(), kept, 10, new byte[] {2}, null);
        assertEquals(List.of(), comparison.differences(a, b));
        assertEquals("body differs (primary 10 bytes, SHA-256 01; shadow 10 bytes, SHA-256 02)",
                comparison.differences(a, c).get(0));
    }
}
