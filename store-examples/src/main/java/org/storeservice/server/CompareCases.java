package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.net.URLEncoder;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The requests {@code compare} sends: what a team migrating off ASMX needs to see answered alike (wire notes §0–9).
 * The metadata pages, the dispatch errors (wrong verb, a path below the endpoint), every SOAP fault and HTTP GET/POST
 * error that stores nothing, and, only when asked, one write per binding and operation.
 *
 * <p>No case but a write case can store anything on a server that behaves like ASMX, nor on one that does not: their
 * wrappers carry no key or an empty one, or the request fails before any parameter is read. The few that need a key
 * to reach their error use {@link #NEVER_STORED_KEY}. Left out: the request size limit (its value differs by
 * configuration) and paths beside the endpoint (their 404 pages come from the web server, not the service).
 */
final class CompareCases {
    /** The key of the few error cases that need one to reach their error; none of them stores it. */
    static final String NEVER_STORED_KEY = "store-compare/never-stored";
    /** What the write cases store: non-ASCII text, so that the request encoding counts. */
    static final String WRITTEN_TEXT = "compare: Grüße ✓";
    /** What the write cases store as bytes: a NUL, ASCII and 0xFF. */
    static final byte[] WRITTEN_BYTES = {0, 'h', 'i', (byte) 0xFF};

    private static final String SOAP11 = "http://schemas.xmlsoap.org/soap/envelope/";
    private static final String SOAP12 = "http://www.w3.org/2003/05/soap-envelope";
    private static final String TEXT_XML = "text/xml; charset=utf-8";
    private static final String SOAP12_XML = "application/soap+xml; charset=utf-8";
    private static final String FORM = "application/x-www-form-urlencoded";

    private final String namespace;
    private final List<CompareCase> cases = new ArrayList<>();

    private CompareCases(String namespace) {
        this.namespace = namespace;
    }

    /**
     * The cases in the order they are sent.
     *
     * @param namespace the service's XML namespace, as both servers are configured
     * @param keyPrefix with it, the write cases are included, each writing the key {@code keyPrefix + name};
     *     {@code null} for none
     */
    static List<CompareCase> catalogue(String namespace, String keyPrefix) {
        CompareCases c = new CompareCases(namespace);
        c.metadata();
        c.dispatch();
        c.soap11();
        c.soap12();
        c.httpGet();
        c.httpPost();
        if (keyPrefix != null) {
            c.writes(keyPrefix);
        }
        return List.copyOf(c.cases);
    }

    private void metadata() {
        get("help-page", "", null);
        get("help-page-unrecognised-query", "", "wsdl&foo");
        get("op-page-WriteString", "", "op=WriteString");
        get("op-page-WriteBytes", "", "op=WriteBytes");
        get("op-page-unknown", "", "op=Nope");
        get("wsdl", "", "WSDL");
        get("wsdl-lower-case", "", "wsdl");
        get("disco", "", "disco");
        get("wsdl-unknown-id", "", "wsdl=x");
        get("schema-unknown-id", "", "schema=x");
    }

    private void dispatch() {
        get("trailing-slash", "/", null);
        get("unknown-path-below-endpoint", "/No/Such", null);
        for (String method : List.of("HEAD", "PUT", "DELETE", "OPTIONS")) {
            add(method.toLowerCase(Locale.ROOT) + "-endpoint", method, "", null, List.of(), null, false);
        }
        add("put-operation", "PUT", "/WriteString", null, List.of(), null, false);
    }

    private void soap11() {
        String noKey = "<WriteString xmlns=\"" + namespace + "\"><value>v</value></WriteString>";
        soap11Action("soap11-missing-key", "WriteString", soap11(noKey));
        soap11Action("soap11-other-operation-element", "WriteString",
                soap11("<WriteBytes xmlns=\"" + namespace + "\"><content>aGk=</content></WriteBytes>"));
        post("soap11-empty-soapaction", TEXT_XML, "\"\"", soap11(noKey));
        post("soap11-unknown-soapaction", TEXT_XML, "\"urn:store-compare:nope\"", soap11(noKey));
        post("soap11-soapaction-wrong-case", TEXT_XML, "\"" + action("writestring") + "\"", soap11(noKey));
        post("soap11-no-soapaction-unknown-element", TEXT_XML, null, soap11("<Nope xmlns=\"" + namespace + "\"/>"));
        soap11Action("soap11-malformed-xml", "WriteString", "<soap:Envelope xmlns:soap=\"" + SOAP11 + "\"><soap:Body><x></y>");
        soap11Action("soap11-empty-body", "WriteString", "");
        soap11Action("soap11-doctype", "WriteString", "<!DOCTYPE x [<!ENTITY e \"v\">]>" + soap11(noKey));
        soap11Action("soap11-missing-body-element", "WriteString", "<soap:Envelope xmlns:soap=\"" + SOAP11 + "\"/>");
        soap11Action("soap-version-mismatch", "WriteString", "<e:Envelope xmlns:e=\"urn:other\"><e:Body/></e:Envelope>");
        soap11Action("soap11-must-understand", "WriteString", "<soap:Envelope xmlns:soap=\"" + SOAP11 + "\"><soap:Header>"
                + "<Auth xmlns=\"urn:store-compare\" soap:mustUnderstand=\"1\">t</Auth></soap:Header><soap:Body>" + noKey
                + "</soap:Body></soap:Envelope>");
        soap11Action("soap11-invalid-base64", "WriteBytes",
                soap11("<WriteBytes xmlns=\"" + namespace + "\"><content>a*b!</content></WriteBytes>"));
        post("soap-wrong-content-type", "application/json", "\"" + action("WriteString") + "\"", soap11(noKey));
        post("soap-no-content-type", null, null, soap12(noKey));
        post("soap11-envelope-as-soap12-media-type", SOAP12_XML, null, soap11(noKey));
    }

    private void soap12() {
        String noKey = "<WriteBytes xmlns=\"" + namespace + "\"><content>aGk=</content></WriteBytes>";
        post("soap12-missing-key", SOAP12_XML, null, soap12(noKey));
        post("soap12-unknown-action-unknown-element", SOAP12_XML + "; action=\"urn:store-compare:nope\"", null,
                soap12("<Nope xmlns=\"" + namespace + "\"/>"));
        post("soap12-no-action-unknown-element", SOAP12_XML, null, soap12("<Nope xmlns=\"" + namespace + "\"/>"));
        post("soap12-malformed-xml", SOAP12_XML, null, "not xml");
        post("soap12-must-understand", SOAP12_XML, null, "<soap:Envelope xmlns:soap=\"" + SOAP12 + "\"><soap:Header>"
                + "<Auth xmlns=\"urn:store-compare\" soap:mustUnderstand=\"true\">t</Auth></soap:Header><soap:Body>" + noKey
                + "</soap:Body></soap:Envelope>");
    }

    private void httpGet() {
        String key = "key=" + form(NEVER_STORED_KEY);
        get("get-WriteString-missing-key", "/WriteString", "value=v");
        get("get-WriteString-empty-key", "/WriteString", "key=&value=v");
        get("get-WriteBytes-missing-content", "/WriteBytes", key);
        get("get-WriteBytes-bad-value", "/WriteBytes", key + "&content=1&content=abc");
        get("get-WriteBytes-out-of-range", "/WriteBytes", key + "&content=256");
        get("get-method-wrong-case", "/writestring", "key=&value=v");
        get("get-unknown-method", "/Nope", "key=&value=v");
    }

    private void httpPost() {
        String key = "key=" + form(NEVER_STORED_KEY);
        formPost("post-WriteString-missing-key", "/WriteString", FORM, "value=v");
        formPost("post-WriteString-empty-key", "/WriteString", FORM, "key=&value=v");
        formPost("post-WriteBytes-bad-value", "/WriteBytes", FORM, key + "&content=abc");
        formPost("post-multipart", "/WriteString", "multipart/form-data; boundary=x", "key=&value=v");
        formPost("post-no-content-type", "/WriteString", null, "key=&value=v");
        formPost("post-unknown-method", "/Nope", FORM, "key=&value=v");
    }

    private void writes(String keyPrefix) {
        String base64 = Base64.getEncoder().encodeToString(WRITTEN_BYTES);
        StringBuilder content = new StringBuilder();
        for (byte b : WRITTEN_BYTES) {
            content.append("&content=").append(b & 0xFF);
        }
        String name = "write-soap11-string";
        soap11Action(name, "WriteString", soap11(writeString(keyPrefix + name)), true);
        name = "write-soap11-bytes";
        soap11Action(name, "WriteBytes", soap11(writeBytes(keyPrefix + name, base64)), true);
        name = "write-soap12-string";
        add(name, "POST", "", null, contentType(SOAP12_XML), soap12(writeString(keyPrefix + name)), true);
        name = "write-soap12-bytes";
        add(name, "POST", "", null, contentType(SOAP12_XML), soap12(writeBytes(keyPrefix + name, base64)), true);
        name = "write-get-string";
        add(name, "GET", "/WriteString", "key=" + form(keyPrefix + name) + "&value=" + form(WRITTEN_TEXT), List.of(), null, true);
        name = "write-get-bytes";
        add(name, "GET", "/WriteBytes", "key=" + form(keyPrefix + name) + content, List.of(), null, true);
        name = "write-post-string";
        add(name, "POST", "/WriteString", null, contentType(FORM),
                "key=" + form(keyPrefix + name) + "&value=" + form(WRITTEN_TEXT), true);
        name = "write-post-bytes";
        add(name, "POST", "/WriteBytes", null, contentType(FORM), "key=" + form(keyPrefix + name) + content, true);
    }

    private String writeString(String key) {
        return "<WriteString xmlns=\"" + namespace + "\"><key>" + xml(key) + "</key><value>" + xml(WRITTEN_TEXT)
                + "</value></WriteString>";
    }

    private String writeBytes(String key, String base64) {
        return "<WriteBytes xmlns=\"" + namespace + "\"><key>" + xml(key) + "</key><content>" + base64
                + "</content></WriteBytes>";
    }

    /** The default SOAP action of {@code operation}: namespace + {@code /} + name, no {@code /} doubled. */
    private String action(String operation) {
        return namespace + (namespace.endsWith("/") ? "" : "/") + operation;
    }

    private void get(String name, String pathSuffix, String rawQuery) {
        add(name, "GET", pathSuffix, rawQuery, List.of(), null, false);
    }

    /** A SOAP 1.1 request as .NET clients send it: text/xml and the quoted action of {@code operation}. */
    private void soap11Action(String name, String operation, String body) {
        soap11Action(name, operation, body, false);
    }

    private void soap11Action(String name, String operation, String body, boolean writes) {
        add(name, "POST", "", null, List.of(Map.entry("Content-Type", TEXT_XML),
                Map.entry("SOAPAction", "\"" + action(operation) + "\"")), body, writes);
    }

    /** A POST to the endpoint with the given Content-Type and SOAPAction, each left out when {@code null}. */
    private void post(String name, String contentType, String soapAction, String body) {
        List<Map.Entry<String, String>> headers = new ArrayList<>(contentType(contentType));
        if (soapAction != null) {
            headers.add(Map.entry("SOAPAction", soapAction));
        }
        add(name, "POST", "", null, headers, body, false);
    }

    private void formPost(String name, String pathSuffix, String contentType, String body) {
        add(name, "POST", pathSuffix, null, contentType(contentType), body, false);
    }

    private void add(String name, String method, String pathSuffix, String rawQuery,
            List<Map.Entry<String, String>> headers, String body, boolean writes) {
        cases.add(new CompareCase(name, method, pathSuffix, rawQuery, headers, body, writes));
    }

    private static List<Map.Entry<String, String>> contentType(String contentType) {
        return contentType == null ? List.of() : List.of(Map.entry("Content-Type", contentType));
    }

    private static String soap11(String body) {
        return "<soap:Envelope xmlns:soap=\"" + SOAP11 + "\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
                + " xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><soap:Body>" + body + "</soap:Body></soap:Envelope>";
    }

    private static String soap12(String body) {
        return "<soap12:Envelope xmlns:soap12=\"" + SOAP12 + "\" xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\""
                + " xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\"><soap12:Body>" + body + "</soap12:Body></soap12:Envelope>";
    }

    private static String form(String value) {
        return URLEncoder.encode(value, UTF_8);
    }

    private static String xml(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
