package org.storeservice.codec.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.storeservice.codec.metadata.MetadataTestSupport.XHTML;
import static org.storeservice.codec.metadata.MetadataTestSupport.attributes;
import static org.storeservice.codec.metadata.MetadataTestSupport.elements;
import static org.storeservice.codec.metadata.MetadataTestSupport.parse;
import static org.storeservice.codec.metadata.MetadataTestSupport.respond;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.storeservice.codec.CodecResponse;
import org.storeservice.codec.StoreCodec;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

class HelpPagesTest {
    private final MetadataPages pages = new MetadataPages(StoreCodec.DEFAULT_NAMESPACE, "/API/Store.asmx");

    @Test
    void servicePageListsTheOperationsAlphabeticallyAndLinksTheDescriptions() {
        Document page = page(pages, "", "localhost:8080");

        assertEquals("Store Web Service", text(page, "title").get(0));
        assertTrue(text(page, "p").contains("Store"), "heading");
        Element alternate = elements(page, XHTML, "link").get(0);
        assertEquals("alternate", alternate.getAttribute("rel"));
        assertEquals("text/xml", alternate.getAttribute("type"));
        assertEquals("/API/Store.asmx?disco", alternate.getAttribute("href"));
        assertEquals(List.of("Store.asmx?WSDL", "Store.asmx?op=WriteBytes", "Store.asmx?op=WriteString",
                        "http://www.w3.org/TR/REC-xml-names/", "http://www.w3.org/TR/wsdl", "http://www.ietf.org/rfc/rfc2396.txt"),
                attributes(page, XHTML, "a", "href"));
        assertEquals(List.of("Service Description", "WriteBytes", "WriteString"), text(page, "a").subList(0, 3));
        assertTrue(text(page, "p").stream().anyMatch(p -> p.startsWith(
                "The following operations are supported.  For a formal definition, please review the Service Description.")));
        assertEquals(List.of("This web service is using http://tempuri.org/ as its default namespace.",
                "Recommendation: Change the default namespace before the XML Web service is made public."), text(page, "h3"));
    }

    @Test
    void servicePageHasNoTempuriAdviceForAnotherNamespaceAndLoadsNothingExternal() {
        Document page = page(new MetadataPages("urn:example:store", "/API/Store.asmx"), "", "h");

        assertTrue(text(page, "h3").isEmpty());
        assertEquals(List.of("Store.asmx?WSDL", "Store.asmx?op=WriteBytes", "Store.asmx?op=WriteString"),
                attributes(page, XHTML, "a", "href"));
        for (String tag : new String[] {"script", "img", "iframe", "object", "embed"}) {
            assertTrue(elements(page, XHTML, tag).isEmpty(), tag);
        }
        assertEquals(List.of("alternate"), attributes(page, XHTML, "link", "rel"), "no external style sheet");
    }

    @Test
    void writeStringPageHasTheInvokeFormPostingToTheAbsoluteHttpPostUrl() {
        Document page = page(pages, "op=WriteString", "localhost:8080");

        assertEquals(List.of("WriteString"), text(page, "h2"));
        assertEquals("Click here for a complete list of operations.", text(page, "p").get(1));
        assertEquals("Store.asmx", attributes(page, XHTML, "a", "href").get(0));
        assertEquals(List.of("Test", "SOAP 1.1", "SOAP 1.2", "HTTP GET", "HTTP POST"), text(page, "h3"));
        Element form = elements(page, XHTML, "form").get(0);
        assertEquals("http://localhost:8080/API/Store.asmx/WriteString", form.getAttribute("action"));
        assertEquals("post", form.getAttribute("method"));
        assertEquals("application/x-www-form-urlencoded", form.getAttribute("enctype"));
        assertEquals(List.of("key", "value", ""), attributes(page, XHTML, "input", "name"));
        assertEquals(List.of("text", "text", "submit"), attributes(page, XHTML, "input", "type"));
        assertEquals("Invoke", attributes(page, XHTML, "input", "value").get(2));
    }

    @Test
    void writeStringSamplesMatchTheWireShapes() {
        List<String> samples = text(page(pages, "op=WriteString", "localhost:8080"), "pre");

        assertEquals(8, samples.size());
        assertEquals("""
                POST /API/Store.asmx HTTP/1.1
                Host: localhost:8080
                Content-Type: text/xml; charset=utf-8
                Content-Length: length
                SOAPAction: "http://tempuri.org/WriteString"

                <?xml version="1.0" encoding="utf-8"?>
                <soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/">
                  <soap:Body>
                    <WriteString xmlns="http://tempuri.org/">
                      <key>string</key>
                      <value>string</value>
                    </WriteString>
                  </soap:Body>
                </soap:Envelope>""", samples.get(0));
        assertTrue(samples.get(1).contains("<WriteStringResult>Success or Error</WriteStringResult>"));
        assertTrue(samples.get(2).startsWith("POST /API/Store.asmx HTTP/1.1\nHost: localhost:8080\n"
                + "Content-Type: application/soap+xml; charset=utf-8\n"));
        assertTrue(samples.get(2).contains("<soap12:Envelope") && !samples.get(2).contains("SOAPAction"));
        assertTrue(samples.get(3).startsWith("HTTP/1.1 200 OK\nContent-Type: application/soap+xml; charset=utf-8\n"));
        assertEquals("GET /API/Store.asmx/WriteString?key=string&value=string HTTP/1.1\nHost: localhost:8080\n", samples.get(4));
        assertEquals("""
                HTTP/1.1 200 OK
                Content-Type: text/xml; charset=utf-8
                Content-Length: length

                <?xml version="1.0" encoding="utf-8"?>
                <Status xmlns="http://tempuri.org/">Success or Error</Status>""", samples.get(5));
        assertEquals("""
                POST /API/Store.asmx/WriteString HTTP/1.1
                Host: localhost:8080
                Content-Type: application/x-www-form-urlencoded
                Content-Length: length

                key=string&value=string""", samples.get(6));
        assertEquals(samples.get(5), samples.get(7));
    }

    @Test
    void writeBytesPageWithholdsTheTestFormAndShowsArrayPlaceholders() {
        Document page = page(pages, "op=WriteBytes", "store.example.com");
        List<String> samples = text(page, "pre");

        assertTrue(elements(page, XHTML, "form").isEmpty());
        assertTrue(text(page, "p").contains(
                "The test form is only available for methods with primitive types as parameters."));
        assertTrue(samples.get(0).contains("SOAPAction: \"http://tempuri.org/WriteBytes\""));
        assertTrue(samples.get(0).contains("Host: store.example.com\n"));
        assertTrue(samples.get(0).contains("<content>base64Binary</content>"));
        assertEquals("GET /API/Store.asmx/WriteBytes?key=string&content=string&content=string HTTP/1.1\n"
                + "Host: store.example.com\n", samples.get(4));
        assertTrue(samples.get(6).endsWith("\n\nkey=string&content=string&content=string"));
    }

    @Test
    void unknownOperationGetsTheMethodNotFoundPageWithItsNameEscaped() {
        CodecResponse response = respond(pages, "op=%3Cscript%3Ealert(1)%3C%2Fscript%3E", "h");
        Document page = parse(response.bodyBytes(), true);

        assertEquals(200, response.status());
        assertEquals(List.of("Method not found"), text(page, "h2"));
        assertTrue(elements(page, XHTML, "script").isEmpty());
        assertTrue(text(page, "p").contains("The method '<script>alert(1)</script>' was not found on the service 'Store'."));
        assertTrue(text(page, "h3").isEmpty(), "no tempuri advice on an operation page");
        assertEquals(0, pages.cachedBodies(), "a client-chosen name is never cached");
    }

    @ParameterizedTest
    @ValueSource(strings = {"op=writestring", "op=", "op=WriteString&op=WriteBytes"})
    void operationNamesAreCaseSensitiveAndRepeatedOpsJoin(String query) {
        assertEquals(List.of("Method not found"), text(page(pages, query, "h"), "h2"));
    }

    @Test
    void hostileNamespaceIsEscapedEverywhere() {
        String namespace = "urn:x\"><script>alert(1)</script>";
        MetadataPages hostile = new MetadataPages(namespace, "/API/Store.asmx");
        for (String query : new String[] {"", "op=WriteString", "op=WriteBytes", "op=Foo"}) {
            Document page = page(hostile, query, "h");
            assertTrue(elements(page, XHTML, "script").isEmpty(), query);
        }
        List<String> samples = text(page(hostile, "op=WriteString", "h"), "pre");
        assertTrue(samples.get(0).contains("SOAPAction: \"" + namespace + "/WriteString\""));
        assertTrue(samples.get(0).contains("<WriteString xmlns=\"urn:x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\">"),
                "the sample shows XML source, so the namespace appears XML-escaped");
    }

    @Test
    void pagesUseCrlfAndStartWithTheHtml5Doctype() {
        for (String query : new String[] {"", "op=WriteString", "op=WriteBytes", "op=Foo"}) {
            String body = new String(respond(pages, query, "h").bodyBytes(), StandardCharsets.UTF_8);
            assertTrue(body.startsWith("<!DOCTYPE html>\r\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\r\n"));
            assertEquals(body.split("\n", -1).length, body.split("\r\n", -1).length, query);
            assertFalse(body.contains("<font"), query);
        }
    }

    private static Document page(MetadataPages pages, String query, String host) {
        CodecResponse response = respond(pages, query, host);
        assertEquals(200, response.status());
        assertEquals("text/html; charset=utf-8", response.header("Content-Type"));
        return parse(response.bodyBytes(), true);
    }

    private static List<String> text(Document page, String tag) {
        return elements(page, XHTML, tag).stream().map(Element::getTextContent).toList();
    }
}
