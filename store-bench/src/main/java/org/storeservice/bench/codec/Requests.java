package org.storeservice.bench.codec;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Random;
import org.storeservice.codec.CodecRequest;

/**
 * The requests the benchmarks send, byte for byte what the peer harness's wrk scripts send (ws11.lua,
 * ws12.lua, wb64k.lua, wb4m.lua) and what this module's hg.lua / hp.lua send for HTTP GET and POST.
 */
final class Requests {
    static final String PATH = "/API/Store.asmx";
    static final String KEY = "k1-1f6cd137";

    private static final String ENV11 = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
            + "<soap:Envelope xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
            + "xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\">"
            + "<soap:Body>%s</soap:Body></soap:Envelope>";
    private static final String ENV12 = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
            + "<soap12:Envelope xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
            + "xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns:soap12=\"http://www.w3.org/2003/05/soap-envelope\">"
            + "<soap12:Body>%s</soap12:Body></soap12:Envelope>";

    /** One request, ready to be replayed: everything but the body stream is shared. */
    static final class Template {
        final String method;
        final String path;
        final String query;
        final String contentType;
        final String soapAction;
        final byte[] body;
        final String contentLength;

        Template(String method, String path, String query, String contentType, String soapAction, byte[] body) {
            this.method = method;
            this.path = path;
            this.query = query;
            this.contentType = contentType;
            this.soapAction = soapAction;
            this.body = body;
            this.contentLength = Integer.toString(body.length);
        }

        /** A fresh request, with the headers a Jetty adapter passes on (wrk sends Host and Content-Length). */
        CodecRequest request() {
            CodecRequest.Builder builder = CodecRequest.builder(method, path).rawQuery(query)
                    .header("Host", "127.0.0.1:18100");
            if (contentType != null) {
                builder.header("Content-Type", contentType);
            }
            if (soapAction != null) {
                builder.header("SOAPAction", soapAction);
            }
            if (body.length > 0) {
                builder.header("Content-Length", contentLength);
            }
            return builder.body(new ByteArrayInputStream(body)).build();
        }
    }

    private Requests() {
    }

    static String value40() {
        Random random = new Random(7919);
        String alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        StringBuilder value = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            value.append(alnum.charAt(random.nextInt(alnum.length())));
        }
        return value.toString();
    }

    static Template writeString(String binding) {
        String value = value40();
        String wrapper = "<WriteString xmlns=\"http://tempuri.org/\"><key>" + KEY + "</key><value>" + value
                + "</value></WriteString>";
        switch (binding) {
            case "soap11":
                return new Template("POST", PATH, null, "text/xml; charset=utf-8",
                        "\"http://tempuri.org/WriteString\"", utf8(String.format(ENV11, wrapper)));
            case "soap12":
                return new Template("POST", PATH, null,
                        "application/soap+xml; charset=utf-8; action=\"http://tempuri.org/WriteString\"", null,
                        utf8(String.format(ENV12, wrapper)));
            case "httpGet":
                return new Template("GET", PATH + "/WriteString", "key=" + KEY + "&value=" + value, null, null,
                        new byte[0]);
            case "httpPost":
                return new Template("POST", PATH + "/WriteString", null, "application/x-www-form-urlencoded",
                        null, utf8("key=" + KEY + "&value=" + value));
            default:
                throw new IllegalArgumentException("unknown binding " + binding);
        }
    }

    static Template writeBytes(int contentBytes) {
        return writeBytes(contentBytes, Base64.getEncoder());
    }

    /** WriteBytes with the content in {@code encoder}'s base64 (MIME's has a line break every 76 characters). */
    static Template writeBytes(int contentBytes, Base64.Encoder encoder) {
        byte[] content = new byte[contentBytes];
        new Random(17).nextBytes(content);
        String wrapper = "<WriteBytes xmlns=\"http://tempuri.org/\"><key>" + KEY + "</key><content>"
                + encoder.encodeToString(content) + "</content></WriteBytes>";
        return new Template("POST", PATH, null, "text/xml; charset=utf-8", "\"http://tempuri.org/WriteBytes\"",
                utf8(String.format(ENV11, wrapper)));
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
