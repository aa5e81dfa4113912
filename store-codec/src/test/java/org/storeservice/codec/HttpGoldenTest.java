package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;
import static org.storeservice.codec.Fixture.PATH;
import static org.storeservice.codec.Fixture.assertResponse;
import static org.storeservice.codec.Fixture.get;
import static org.storeservice.codec.Fixture.headers;
import static org.storeservice.codec.Fixture.post;

import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.storeservice.api.Store;

/** Exact responses of the HTTP GET and POST bindings (wire notes §5–6). */
class HttpGoldenTest {
    private static final List<Map.Entry<String, String>> OK = headers("private, max-age=0", "text/xml; charset=utf-8");
    private static final List<Map.Entry<String, String>> ERROR = headers("private", "text/plain; charset=utf-8");
    private static final String SUCCESS = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<Status xmlns=\"http://tempuri.org/\">Success</Status>";
    private static final String FAILED = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\r\n<Status xmlns=\"http://tempuri.org/\">Error</Status>";
    private static final String FORM = "application/x-www-form-urlencoded";

    private final Fixture fixture = new Fixture();

    private CodecResponse httpGet(String operation, String query) {
        return fixture.handle(get(PATH + "/" + operation, query));
    }

    private CodecResponse httpPost(String operation, String form) {
        return fixture.handle(post(PATH + "/" + operation, form).header("Content-Type", FORM));
    }

    @Test
    void getWriteString() {
        assertResponse(200, OK, SUCCESS, httpGet("WriteString", "key=k&value=a+b%26c%E2%82%AC"));
        assertEquals("a b&c\u20ac", fixture.text("k").orElseThrow());
    }

    @Test
    void getWriteBytes() {
        assertResponse(200, OK, SUCCESS, httpGet("WriteBytes", "key=k&content=104&content=105"));
        assertArrayEquals(new byte[] {0x68, 0x69}, fixture.bytes("k").orElseThrow());
    }

    @Test
    void postWriteString() {
        assertResponse(200, OK, SUCCESS, httpPost("WriteString", "key=k&value=v"));
        assertEquals("v", fixture.text("k").orElseThrow());
    }

    @Test
    void postWriteBytes() {
        assertResponse(200, OK, SUCCESS, httpPost("WriteBytes", "key=k&content=0&content=255&content=+7"));
        assertArrayEquals(new byte[] {0, (byte) 255, 7}, fixture.bytes("k").orElseThrow());
    }

    @Test
    void emptyKeyIsAnErrorResult() {
        assertResponse(200, OK, FAILED, httpGet("WriteString", "key=&value=v"));
        fixture.assertNothingStored();
    }

    @Test
    void postIgnoresTheQueryAndGetIgnoresTheBody() {
        CodecResponse post = fixture.handle(post(PATH + "/WriteString", "key=form&value=f").rawQuery("key=query&value=q")
                .header("Content-Type", FORM + "; charset=utf-8"));
        assertResponse(200, OK, SUCCESS, post);
        assertEquals("f", fixture.text("form").orElseThrow());
        CodecResponse get = fixture.handle(get(PATH + "/WriteString", "").body(new java.io.ByteArrayInputStream("key=k&value=v".getBytes())));
        assertResponse(500, ERROR, "Missing parameter: key.\r\n", get);
    }

    @Test
    void namesAreCaseInsensitiveRepeatedScalarsJoinAndExtrasAreIgnored() {
        assertResponse(200, OK, SUCCESS, httpGet("WriteString", "KEY=k&Value=a&value=b&other=x&noequals"));
        assertEquals("a,b", fixture.text("k").orElseThrow());
    }

    @Test
    void missingParameters() {
        assertResponse(500, ERROR, "Missing parameter: key.\r\n", httpGet("WriteString", "value=v"));
        assertResponse(500, ERROR, "Missing parameter: value.\r\n", httpGet("WriteString", "key=k"));
        assertResponse(500, ERROR, "Missing parameter: key.\r\n", httpPost("WriteBytes", "content=1"));
        assertResponse(500, ERROR, "Object reference not set to an instance of an object.\r\n", httpGet("WriteBytes", "key=k"));
        fixture.assertNothingStored();
    }

    @Test
    void badContentValuesGiveTheDotNetConversionErrors() {
        assertResponse(500, ERROR, "Cannot convert abc to System.Byte.\r\nParameter name: type ---&gt; Input string was not in a correct format.\r\n",
                httpGet("WriteBytes", "key=k&content=1&content=abc&content=256"));
        assertResponse(500, ERROR, "Cannot convert 256 to System.Byte.\r\nParameter name: type ---&gt; Value was either too large or too small for an unsigned byte.\r\n",
                httpGet("WriteBytes", "key=k&content=256"));
        assertResponse(500, ERROR, "Cannot convert  to System.Byte.\r\nParameter name: type ---&gt; Input string was not in a correct format.\r\n",
                httpGet("WriteBytes", "key=k&content="));
        assertResponse(500, ERROR, "Cannot convert <9> to System.Byte.\r\nParameter name: type ---&gt; Input string was not in a correct format.\r\n"
                .replace("<9>", "&lt;9&gt;"), httpPost("WriteBytes", "key=k&content=%3C9%3E"));
        fixture.assertNothingStored();
    }

    @Test
    void methodNamesAreCaseSensitive() {
        assertResponse(500, ERROR, "Invalid method name &#39;writestring&#39;,  method names are case sensitive.   The method name &#39;WriteString&#39; "
                + "with the same name but different casing was found.\r\nParameter name: methodName\r\n", httpGet("writestring", "key=k&value=v"));
        assertResponse(500, ERROR, "Nope Web Service method name is not valid.\r\n", httpPost("Nope", "key=k&value=v"));
        assertResponse(500, ERROR, "WriteString/x Web Service method name is not valid.\r\n", httpGet("WriteString/x", ""));
        fixture.assertNothingStored();
    }

    @Test
    void postWithAnotherContentTypeIsRequestFormatInvalid() {
        CodecResponse multipart = fixture.handle(post(PATH + "/WriteString", "key=k&value=v").header("Content-Type", "multipart/form-data; boundary=x"));
        assertResponse(500, ERROR, "Request format is invalid: multipart/form-data; boundary=x.\r\n", multipart);
        CodecResponse none = fixture.handle(post(PATH + "/WriteString", "key=k&value=v"));
        assertResponse(500, ERROR, "Request format is invalid: .\r\n", none);
        fixture.assertNothingStored();
    }

    @Test
    void postOverTheSizeLimitIsMaximumRequestLengthExceeded() {
        Fixture small = new Fixture(CodecLimits.builder().maxRequestBytes(20).build());
        String exactly20 = "key=k&value=" + "v".repeat(8);
        assertResponse(200, OK, SUCCESS, small.handle(post(PATH + "/WriteString", exactly20).header("Content-Type", FORM)));
        assertResponse(500, ERROR, "Maximum request length exceeded.\r\n",
                small.handle(post(PATH + "/WriteString", exactly20 + "v").header("Content-Type", FORM)));
        assertResponse(500, ERROR, "Maximum request length exceeded.\r\n",
                small.handle(post(PATH + "/WriteString", "key=k&value=v").header("Content-Type", FORM).header("Content-Length", "21")));
    }

    @Test
    void formsJustUnderTheSizeLimitOfEmptyOrUnnamedPairsAreRead() {
        // each pair used to be searched for '=' to the end of the form: minutes of CPU for one such request
        assertResponse(200, OK, SUCCESS, httpPost("WriteString", justUnderTheLimit("&", "key=k&value=v")));
        assertEquals("v", fixture.text("k").orElseThrow());
        assertResponse(200, OK, SUCCESS, httpPost("WriteString", justUnderTheLimit("a=&", "key=k2&value=v2")));
        assertEquals("v2", fixture.text("k2").orElseThrow());
    }

    /** {@code filler} repeated, then {@code tail}: as long as fits in the default size limit, less one byte at most. */
    private static String justUnderTheLimit(String filler, String tail) {
        int room = (int) CodecLimits.DEFAULT_MAX_REQUEST_BYTES - 1 - tail.length();
        String form = filler.repeat(room / filler.length()) + tail;
        assertEquals(true, form.length() < CodecLimits.DEFAULT_MAX_REQUEST_BYTES && form.length() > room - filler.length());
        return form;
    }

    @Test
    void parameterNameLimitIsExact() {
        Fixture limited = new Fixture(CodecLimits.builder().maxParameterNames(3).build());
        assertResponse(200, OK, SUCCESS, limited.handle(get(PATH + "/WriteString", "key=k&value=v&a=1&A=2&value=w")));
        assertResponse(500, ERROR, "Operation is not valid due to the current state of the object.\r\n",
                limited.handle(get(PATH + "/WriteString", "key=k2&value=v&a=1&b=2")));
        assertEquals(false, limited.text("k2").isPresent());
    }

    @Test
    void storeExceptionIsTheRemoteMessage() {
        Store failing = mock(Store.class, CALLS_REAL_METHODS);
        when(failing.writeString(anyString(), anyString())).thenThrow(new IllegalStateException("boom 'x'"));
        when(failing.writeBytes(anyString(), any(InputStream.class))).thenThrow(new IllegalStateException("boom"));
        StoreCodec codec = StoreCodec.builder(failing).build();
        assertResponse(500, ERROR, "Server was unable to process request. ---&gt; boom &#39;x&#39;\r\n",
                codec.handle(get(PATH + "/WriteString", "key=k&value=v").build()));
        assertResponse(500, ERROR, "Server was unable to process request. ---&gt; boom\r\n",
                codec.handle(get(PATH + "/WriteBytes", "key=k&content=1").build()));
    }
}
