package org.storeservice.codec.fuzz;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.storeservice.api.DefaultStore;
import org.storeservice.codec.CodecRequest;
import org.storeservice.codec.CodecResponse;
import org.storeservice.codec.StoreCodec;
import org.storeservice.codec.fuzz.WireProperty.Binding;

/**
 * Coverage-guided fuzz tests of each binding's decoder and the metadata query parser, against
 * {@link WireProperty}. A normal build replays the committed corpus in {@code CodecFuzzTestInputs/<method>/}
 * (seeded from the golden requests by {@link FuzzSeeds}); {@code JAZZER_FUZZ=1} fuzzes one method (docs/wire-compatibility.md
 * "Fuzzing").
 *
 * <p>Input layout, so that a seed can be written by hand: the {@link FuzzedDataProvider} takes its choices
 * (one byte each, index modulo the number of choices) from the END of the input, last byte first; the rest is
 * the request's text. The choices are named in the order they are taken.
 */
class CodecFuzzTest {
    static final String PATH = StoreCodec.DEFAULT_ENDPOINT_PATH;

    static final String[] SOAP_ACTIONS = {null, "\"http://tempuri.org/WriteString\"", "\"http://tempuri.org/WriteBytes\"",
        "http://tempuri.org/WriteString", "\"\"", "\"urn:other\"", "http%3A%2F%2Ftempuri.org%2FWriteBytes"};
    static final String[] SOAP11_CONTENT_TYPES = {"text/xml; charset=utf-8", "text/xml", null,
        "text/xml; charset=utf-16", "text/xml; charset=iso-8859-1", "application/soap+xml; charset=utf-8", "text/plain"};
    static final String[] SOAP12_CONTENT_TYPES = {"application/soap+xml; charset=utf-8", "application/soap+xml",
        "application/soap+xml; charset=utf-8; action=\"http://tempuri.org/WriteString\"",
        "application/soap+xml; action=http://tempuri.org/WriteBytes",
        "application/soap+xml; charset=utf-8; action=\"urn:other\"", "application/soap+xml; charset=utf-16",
        "text/xml; charset=utf-8"};
    static final String[] FORM_CONTENT_TYPES = {"application/x-www-form-urlencoded",
        "application/x-www-form-urlencoded; charset=utf-8", null, "multipart/form-data; boundary=x", "text/plain",
        "application/x-www-form-urlencoded; charset=iso-8859-1"};
    /** How many bytes the body stream gives per read: all at once, or fragments that split tokens. */
    static final int[] READ_SIZES = {Integer.MAX_VALUE, 1, 2, 7, 64};

    private static final RecordingStorage STORAGE = new RecordingStorage();
    private static final StoreCodec CODEC = StoreCodec.builder(DefaultStore.builder(STORAGE).build()).build();
    private static final WireProperty PROPERTY = new WireProperty();

    /** Choices: SOAPAction, Content-Type, read size, whether Content-Length is sent. Rest: the body. */
    @FuzzTest
    void soap11Post(FuzzedDataProvider data) throws IOException {
        String action = data.pickValue(SOAP_ACTIONS);
        String contentType = data.pickValue(SOAP11_CONTENT_TYPES);
        CodecRequest.Builder request = post(PATH, contentType, data);
        if (action != null) {
            request.header("SOAPAction", action);
        }
        answer(Binding.SOAP, request);
    }

    /** Choices: Content-Type (with or without action), read size, whether Content-Length is sent. Rest: the body. */
    @FuzzTest
    void soap12Post(FuzzedDataProvider data) throws IOException {
        answer(Binding.SOAP, post(PATH, data.pickValue(SOAP12_CONTENT_TYPES), data));
    }

    /** No choices. The input is {@code <path info after "/API/Store.asmx/">?<raw query>}, in UTF-8. */
    @FuzzTest
    void httpGet(FuzzedDataProvider data) throws IOException {
        String target = utf8(data.consumeRemainingAsBytes());
        int query = target.indexOf('?');
        String path = PATH + "/" + (query < 0 ? target : target.substring(0, query));
        answer(Binding.HTTP, CodecRequest.builder("GET", path).rawQuery(query < 0 ? null : target.substring(query + 1)));
    }

    /**
     * Choices: Content-Type, read size, whether Content-Length is sent. Rest: {@code <path info after
     * "/API/Store.asmx/">}, a line feed, then the form body.
     */
    @FuzzTest
    void httpPostForm(FuzzedDataProvider data) throws IOException {
        String contentType = data.pickValue(FORM_CONTENT_TYPES);
        int readSize = data.pickValue(READ_SIZES);
        boolean declareLength = data.consumeBoolean();
        byte[] rest = data.consumeRemainingAsBytes();
        int lineFeed = indexOf(rest, (byte) '\n');
        String pathInfo = utf8(Arrays.copyOf(rest, lineFeed < 0 ? rest.length : lineFeed));
        byte[] body = lineFeed < 0 ? new byte[0] : Arrays.copyOfRange(rest, lineFeed + 1, rest.length);
        answer(Binding.HTTP, post(PATH + "/" + pathInfo, contentType, body, readSize, declareLength));
    }

    /** No choices. The input is {@code <raw query>}, then optionally a line feed and the Host header, in UTF-8. */
    @FuzzTest
    void metadataQuery(FuzzedDataProvider data) throws IOException {
        String input = utf8(data.consumeRemainingAsBytes());
        int lineFeed = input.indexOf('\n');
        CodecRequest.Builder request = CodecRequest.builder("GET", PATH)
                .rawQuery(lineFeed < 0 ? input : input.substring(0, lineFeed));
        if (lineFeed >= 0) {
            request.header("Host", input.substring(lineFeed + 1).replace('\n', ' ').replace('\r', ' '));
        }
        answer(Binding.METADATA, request);
    }

    private static void answer(Binding binding, CodecRequest.Builder request) throws IOException {
        CodecResponse response = CODEC.handle(request.build());
        PROPERTY.check(binding, response, STORAGE);
    }

    private static CodecRequest.Builder post(String path, String contentType, FuzzedDataProvider data) {
        int readSize = data.pickValue(READ_SIZES);
        boolean declareLength = data.consumeBoolean();
        return post(path, contentType, data.consumeRemainingAsBytes(), readSize, declareLength);
    }

    private static CodecRequest.Builder post(String path, String contentType, byte[] body, int readSize,
            boolean declareLength) {
        CodecRequest.Builder request = CodecRequest.builder("POST", path).body(fragmented(body, readSize));
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        if (declareLength) {
            request.header("Content-Length", Integer.toString(body.length));
        }
        return request;
    }

    /** A stream of {@code bytes} that returns at most {@code readSize} bytes per read. */
    private static InputStream fragmented(byte[] bytes, int readSize) {
        return new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] buffer, int offset, int length) {
                return super.read(buffer, offset, Math.min(length, readSize));
            }
        };
    }

    private static int indexOf(byte[] bytes, byte wanted) {
        for (int i = 0; i < bytes.length; i++) {
            if (bytes[i] == wanted) {
                return i;
            }
        }
        return -1;
    }

    private static String utf8(byte[] bytes) {
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
