package org.storeservice.codec.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The .NET text conventions every binding shares: UrlDecode, Content-Type parameters, escaping. */
class WireTextTest {

    @Test
    void urlDecodeIsHttpUtilitysDecode() {
        assertEquals("a b+c", UrlDecoding.decode("a+b%2Bc", StandardCharsets.UTF_8));
        assertEquals("\u20ac\u00e9", UrlDecoding.decode("%E2%82%AC%u00e9", StandardCharsets.UTF_8));
        assertEquals("100%", UrlDecoding.decode("100%", StandardCharsets.UTF_8));
        assertEquals("%zz%u12", UrlDecoding.decode("%zz%u12", StandardCharsets.UTF_8));
        assertEquals("\uFFFD", UrlDecoding.decode("%FF", StandardCharsets.UTF_8));
        assertEquals("%\u0663\u0663%\uFF11\uFF11", UrlDecoding.decode("%\u0663\u0663%\uFF11\uFF11", StandardCharsets.UTF_8));
        // a 7-bit character joins the bytes before it, as in .NET: %82 and 'a' are one Shift_JIS character
        assertEquals("\uFF22", UrlDecoding.decode("%82a", Charset.forName("Shift_JIS")));
    }

    @Test
    void contentTypeParametersAreReadAsAsmxReadsThem() {
        String contentType = "application/soap+xml; charset=\"utf-8\";\tACTION = 'urn:a;' ";
        assertEquals("application/soap+xml", ContentType.base(contentType));
        assertEquals("utf-8", ContentType.parameter(contentType, "charset"));
        assertEquals("urn:a", ContentType.parameter(contentType, "action"));
        assertNull(ContentType.parameter("text/xml", "action"));
        assertEquals("", ContentType.base(null));
        assertNull(ContentType.charset("text/xml; charset=nonsense-42"));
        assertEquals(StandardCharsets.UTF_8, ContentType.charset("text/xml; charset=UTF-8"));
    }

    @Test
    void escapingMatchesXmlTextWriterAndHtmlEncode() {
        assertEquals("a &lt;b&gt; &amp; \"c\" 'd'\r\n&#x1;", TextEscaping.xmlText("a <b> & \"c\" 'd'\r\n\u0001"));
        assertEquals("&lt;&gt;&quot;&amp;&#39;&#233;\u20ac", TextEscaping.html("<>\"&'\u00e9\u20ac"));
        assertEquals("urn:&quot;x&quot;", TextEscaping.xmlAttribute("urn:\"x\""));
        assertEquals("a&#xD;&#xA;\tb'&lt;", TextEscaping.xmlAttribute("a\r\n\tb'<"));
    }
}
