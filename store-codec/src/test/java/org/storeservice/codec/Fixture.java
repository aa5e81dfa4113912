package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.StoreLimits;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.StoredEntry;

/** A codec over a real DefaultStore and MemoryStorage, and helpers to build requests and read results. */
public final class Fixture {
    public static final String NS = "http://tempuri.org/";
    public static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
    public static final String SOAP12 = "http://www.w3.org/2003/05/soap-envelope";
    public static final String XML_DECL = "<?xml version=\"1.0\" encoding=\"utf-8\"?>";
    public static final String XSI_XSD = " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
            + " xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"";
    public static final String PATH = "/API/Store.asmx";

    public final MemoryStorage storage = new MemoryStorage();
    public final StoreCodec codec;

    public Fixture() {
        this(CodecLimits.defaults());
    }

    public Fixture(CodecLimits limits) {
        this(limits, StoreLimits.defaults());
    }

    public Fixture(CodecLimits limits, StoreLimits storeLimits) {
        codec = StoreCodec.builder(DefaultStore.builder(storage).limits(storeLimits).build()).limits(limits).build();
    }

    /** A SOAP 1.1 envelope around {@code body}. */
    public static String soap11(String body) {
        return "<soap:Envelope xmlns:soap=\"" + SOAP11 + "\"" + XSI_XSD + "><soap:Body>" + body
                + "</soap:Body></soap:Envelope>";
    }

    /** A SOAP 1.2 envelope around {@code body}. */
    public static String soap12(String body) {
        return "<soap12:Envelope xmlns:soap12=\"" + SOAP12 + "\"" + XSI_XSD + "><soap12:Body>" + body
                + "</soap12:Body></soap12:Envelope>";
    }

    public static String writeString(String key, String value) {
        return "<WriteString xmlns=\"" + NS + "\"><key>" + key + "</key><value>" + value + "</value></WriteString>";
    }

    public static String writeBytes(String key, String base64) {
        return "<WriteBytes xmlns=\"" + NS + "\"><key>" + key + "</key><content>" + base64 + "</content></WriteBytes>";
    }

    /** A SOAP 1.1 POST with {@code SOAPAction: "http://tempuri.org/{operation}"}. */
    public static CodecRequest.Builder soap11Post(String operation, String xml) {
        return post(PATH, xml).header("Content-Type", "text/xml; charset=utf-8")
                .header("SOAPAction", "\"" + NS + operation + "\"");
    }

    /** A SOAP 1.2 POST without an action parameter. */
    public static CodecRequest.Builder soap12Post(String xml) {
        return post(PATH, xml).header("Content-Type", "application/soap+xml; charset=utf-8");
    }

    public static CodecRequest.Builder post(String path, String body) {
        return post(path, body.getBytes(StandardCharsets.UTF_8));
    }

    public static CodecRequest.Builder post(String path, byte[] body) {
        return CodecRequest.builder("POST", path).body(new ByteArrayInputStream(body));
    }

    public static CodecRequest.Builder get(String path, String rawQuery) {
        return CodecRequest.builder("GET", path).rawQuery(rawQuery);
    }

    public CodecResponse handle(CodecRequest.Builder request) {
        return codec.handle(request.build());
    }

    /** The stored entry's text, or empty. */
    public Optional<String> text(String key) {
        return entry(key).map(StoredEntry::text);
    }

    public Optional<byte[]> bytes(String key) {
        return entry(key).map(StoredEntry::bytes);
    }

    public Optional<StoredEntry> entry(String key) {
        try {
            return storage.get(key);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public void assertNothingStored() {
        assertEquals(0, entryCount(), "entries stored");
    }

    public int entryCount() {
        try {
            int[] count = {0};
            storage.scan("", entry -> count[0]++);
            return count[0];
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String body(CodecResponse response) {
        return new String(response.bodyBytes(), StandardCharsets.UTF_8);
    }

    /** Asserts status, the exact headers in order, and the exact body. */
    public static void assertResponse(int status, List<Map.Entry<String, String>> headers, String body, CodecResponse response) {
        assertEquals(body, body(response));
        assertEquals(headers, response.headers());
        assertEquals(status, response.status());
    }

    public static List<Map.Entry<String, String>> headers(String cacheControl, String contentType) {
        return List.of(Map.entry("Cache-Control", cacheControl), Map.entry("Content-Type", contentType));
    }

    /** An InputStream that returns at most {@code chunk} bytes per read. */
    public static InputStream chunked(byte[] bytes, int chunk) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, chunk));
            }
        };
    }
}
