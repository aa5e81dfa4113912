package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

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

    private List<String> details(Answer primary, Answer shadow) {
        return comparison.differences(primary, shadow, false).stream().map(Difference::detail).toList();
    }

    private List<String> causes(Answer primary, Answer shadow, boolean write) {
        return comparison.differences(primary, shadow, write).stream().map(Difference::cause).toList();
    }

    @Test
    void eachServicesOwnHostIsNormalised() {
        assertEquals(List.of(), details(
                answer(200, "text/xml; charset=utf-8", "<soap:address location=\"http://old.example/API/Store.asmx\" />"),
                answer(200, "text/xml; charset=utf-8", "<soap:address location=\"http://127.0.0.1:8081/API/Store.asmx\" />")));
    }

    @Test
    void statusHeadersAndBodyAreCompared() {
        List<String> found = details(
                answer(200, "text/xml; charset=utf-8", "<Status>Success</Status>"),
                answer(500, "text/plain; charset=utf-8", "<Status>Error</Status>"));
        assertEquals(List.of("status: primary 200, shadow 500",
                "Content-Type: primary \"text/xml; charset=utf-8\", shadow \"text/plain; charset=utf-8\"",
                "body differs at byte 8 (primary 24 bytes, shadow 22 bytes, hosts normalised): primary \"<Status>Success</Status>\","
                        + " shadow \"<Status>Error</Status>\""), found);
    }

    @Test
    void lineEndsAreShownAsCompareShowsThemAndNamedAsTheCause() {
        Answer mono = answer(200, "text/xml; charset=utf-8", "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<Status>Success</Status>");
        Answer store = answer(200, "text/xml; charset=utf-8", "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<Status>Success</Status>");
        List<Difference> found = comparison.differences(mono, store, true);
        assertEquals(1, found.size(), found.toString());
        assertEquals("line-endings", found.get(0).kind());
        assertEquals("body: line ends differ (primary LF, shadow CRLF)", found.get(0).cause());
        String detail = found.get(0).detail();
        assertTrue(detail.startsWith("body differs at byte 38 (primary 63 bytes, shadow 64 bytes"), detail);
        assertTrue(detail.contains("?>\\n<Status>") && detail.contains("?>\\r\\n<Status>"), detail);
    }

    @Test
    void bytesOutsideUtf8AreShownOneByOneAndTheRestAsText() {
        assertEquals("\"a\\u0000\\xffé\\r\\n\"", AnswerComparison.excerpt(new byte[] {'a', 0, (byte) 0xFF, (byte) 0xC3,
                (byte) 0xA9, '\r', '\n'}, 0));
    }

    @Test
    void causesCarryNoSizesOrOffsetsSoThatOneCauseIsOneGroup() {
        List<String> first = causes(answer(200, "text/html", "<p>one page</p>"), answer(200, "text/html", "<p>another, longer</p>"),
                false);
        List<String> second = causes(answer(200, "text/html", "<div>x</div>"), answer(200, "text/html", "<div>yy</div>"), false);
        assertEquals(List.of("body differs"), first);
        assertEquals(first, second);
    }

    @Test
    void twoFaultsThatDifferOnlyInTheirTextAreTold() {
        String fault = "<soap:Envelope><soap:Body><soap:Fault><faultcode>soap:Client</faultcode><faultstring>%s</faultstring>"
                + "<detail>%s</detail></soap:Fault></soap:Body></soap:Envelope>";
        List<Difference> found = comparison.differences(
                answer(500, "text/xml", fault.formatted("System.Xml.XmlException: a message", "")),
                answer(500, "text/xml", fault.formatted("another parser's message", "more")), false);
        assertEquals(List.of("fault-text"), found.stream().map(Difference::kind).toList());
        List<Difference> otherCode = comparison.differences(
                answer(500, "text/xml", fault.formatted("m", "")),
                answer(500, "text/xml", fault.replace("soap:Client", "soap:Server").formatted("m", "")), false);
        assertEquals(List.of("body"), otherCode.stream().map(Difference::kind).toList());
    }

    @Test
    void aWriteAnsweredSuccessByOneAndErrorByTheOtherIsItsOwnCause() {
        List<Difference> found = comparison.differences(answer(200, "text/xml", "<Status>Success</Status>"),
                answer(200, "text/xml", "<Status>Error</Status>"), true);
        assertEquals(List.of(Difference.OUTCOME), found.stream().map(Difference::kind).toList());
        assertEquals("the write answered 200 Success by the primary, 200 Error by the shadow", found.get(0).cause());
        assertEquals(List.of("status", Difference.OUTCOME), comparison.differences(
                answer(200, "text/xml", "<Status>Success</Status>"), answer(500, "text/xml", "<soap:Fault/>"), true)
                .stream().map(Difference::kind).toList());
    }

    @Test
    void asmxsEmptyBodyOnA400AgainstStoresFaultIsADocumentedChoice() {
        assertEquals(List.of(), details(answer(400, null, ""),
                answer(400, "text/xml; charset=utf-8", "<soap:Envelope>...fault...</soap:Envelope>")));
        assertEquals(List.of("status: primary 400, shadow 500"), details(answer(400, null, ""),
                answer(500, null, "")), "not when the statuses differ");
    }

    @Test
    void htmlErrorPagesAreComparedByTheirTitles() {
        String asmx = "<html><head><title>Request format is unrecognized.</title><style>yellow</style></head><body>...";
        String store = "<!DOCTYPE html><html><head><title>Request format is unrecognized.</title></head><body><h1>...";
        assertEquals(List.of(), details(answer(405, "text/html; charset=utf-8", asmx),
                answer(405, "text/html; charset=utf-8", store)));
        List<String> found = details(answer(500, "text/html", asmx),
                answer(500, "text/html", store.replace("Request format is unrecognized.", "Another error")));
        assertEquals(1, found.size(), found.toString());
    }

    @Test
    void answersLongerThanTheProxyKeepsAreComparedByLengthAndHash() {
        byte[] kept = "abc".getBytes(UTF_8);
        Answer a = new Answer(200, List.of(), kept, 10, new byte[] {1}, null);
        Answer b = new Answer(200, List.of(), kept, 10, new byte[] {1}, null);
        Answer c = new Answer(200, List.of(), kept, 10, new byte[] {2}, null);
        assertEquals(List.of(), details(a, b));
        assertEquals("body differs (primary 10 bytes, SHA-256 01; shadow 10 bytes, SHA-256 02)", details(a, c).get(0));
    }
}
