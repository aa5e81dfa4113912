package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.storeservice.server.CaseExchange.Answer;
import org.storeservice.shadow.HostNormaliser;

/**
 * What {@code compare} counts as a difference, and how it shows one: only the hosts are normalised, and the documented
 * choices are not differences.
 */
class ResponseDifferTest {
    private final ResponseDiffer differ = new ResponseDiffer(
            new HostNormaliser(URI.create("http://IIS.example/API/Store.asmx")),
            new HostNormaliser(URI.create("http://127.0.0.1:8080/API/Store.asmx")));

    private static Answer answer(int status, String contentType, String body) {
        return new Answer(status, Map.of("content-type", List.of(contentType), "date", List.of(body)), body.getBytes(UTF_8), null);
    }

    @Test
    void eachEndpointsOwnHostAndPortAreThePlaceholderAndNothingElseIs() {
        HostNormaliser iis = new HostNormaliser(URI.create("http://iis.example/API/Store.asmx"));
        assertEquals("http://{host}/API/Store.asmx {host} {host}. www.iis.example iis.example.au iis.example:8080",
                iis.normalise("http://iis.example:80/API/Store.asmx IIS.EXAMPLE iis.example. www.iis.example"
                        + " iis.example.au iis.example:8080"));
        HostNormaliser local = new HostNormaliser(URI.create("https://127.0.0.1:8443/x"));
        assertEquals("https://{host}/x 127.0.0.10 127.0.0.1:443", local.normalise("https://127.0.0.1:8443/x 127.0.0.10 127.0.0.1:443"));
    }

    @Test
    void asmxsEmpty400AgainstStoresFaultIsNotADifferenceButAnother400Is() {
        Answer empty = new Answer(400, Map.of(), new byte[0], null);
        Answer fault = answer(400, "text/xml; charset=utf-8", "<soap:Envelope>fault</soap:Envelope>");
        assertEquals(List.of(), differ.differences(empty, fault));
        Answer otherFault = answer(400, "text/xml; charset=utf-8", "<soap:Envelope>another</soap:Envelope>");
        assertEquals("body differs from line 1, column 16 (old 36 chars, new 38 chars):",
                differ.differences(fault, otherFault).get(0), "two bodies: compared");
    }

    @Test
    void bodiesThatDifferOnlyInTheirHostsMatch() {
        Answer old = answer(200, "text/xml; charset=utf-8", "<soap:address location=\"http://iis.example/API/Store.asmx\" />");
        Answer updated = answer(200, "text/xml; charset=utf-8", "<soap:address location=\"http://127.0.0.1:8080/API/Store.asmx\" />");
        assertEquals(List.of(), differ.differences(old, updated), "Date and other headers not listed are not compared");
    }

    @Test
    void statusContentTypeAndListedHeadersAreCompared() {
        Answer old = new Answer(405, Map.of("Content-Type", List.of("text/html; charset=utf-8"), "Allow", List.of("GET, POST"),
                "Location", List.of("http://iis.example/a")), new byte[0], null);
        Answer updated = new Answer(500, Map.of("content-type", List.of("text/html;charset=utf-8"),
                "location", List.of("http://127.0.0.1:8080/a")), new byte[0], null);
        assertEquals(List.of("status: old 405, new 500",
                "Content-Type: old \"text/html; charset=utf-8\", new \"text/html;charset=utf-8\"",
                "Allow: old \"GET, POST\", new (none)"), differ.differences(old, updated));
    }

    @Test
    void aTextDiffShowsTheFirstDifferingLinesWithContextAndCarriageReturns() {
        String old = "a\r\nb\r\nc\r\nd\r\ne\r\nf\r\ng\r\nh\r\n";
        String updated = "a\r\nb\r\nc\r\nD\r\nX\r\ne\r\nf\r\ng\r\nH\r\n";
        assertEquals(List.of("body differs from line 4 (old 24 chars, new 27 chars):",
                "@@ -2,5 +2,6 @@", " b\\r", " c\\r", "-d\\r", "+D\\r", "+X\\r", " e\\r", " f\\r",
                "(more differences further on; only the first is shown)"), ResponseDiffer.textDiff(old, updated));
    }

    @Test
    void aLongLineIsShownFromJustBeforeItsFirstDifference() {
        String prefix = "x".repeat(300);
        List<String> diff = ResponseDiffer.textDiff(prefix + "old tail", prefix + "new tail");
        assertEquals("body differs from line 1, column 301 (old 308 chars, new 308 chars):", diff.get(0));
        assertEquals("-..." + "x".repeat(40) + "old tail", diff.get(2));
        assertEquals("+..." + "x".repeat(40) + "new tail", diff.get(3));
    }

    @Test
    void binaryBodiesGiveTheFirstDifferingOffset() {
        Answer old = new Answer(200, Map.of(), new byte[] {0, 1, 2, 3}, null);
        Answer updated = new Answer(200, Map.of(), new byte[] {0, 1, 9}, null);
        assertEquals(List.of("body differs at byte offset 2 (old 4 bytes, new 3 bytes): old 02 03, new 09"),
                differ.differences(old, updated));
    }

    @Test
    void anUnansweredRequestIsADifference() {
        Answer old = answer(200, "text/plain", "x");
        assertEquals(List.of("answer: old status 200; new no answer within 10.0 s"),
                differ.differences(old, Answer.failed("no answer within 10.0 s")));
    }
}
