package org.storeservice.codec.metadata;

import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Function;
import org.storeservice.codec.CodecRequest;
import org.storeservice.codec.CodecResponse;
import org.storeservice.codec.Protocols;
import org.storeservice.codec.wire.ErrorPages;

/**
 * Answers every GET on the bare endpoint path (no path info): the WSDL ({@code ?WSDL}, any case), the
 * disco document ({@code ?disco}), the help page, the per-operation pages ({@code ?op=WriteString}), and
 * the ASMX errors for {@code ?wsdl=x} / {@code ?schema=x}. Built once per codec; thread-safe.
 *
 * <p>The query is read as ASMX reads it (wire notes §0, §7): a {@code schema} or {@code wsdl} parameter, or a
 * bare {@code wsdl}/{@code disco} (case-insensitive) is the Discovery protocol; anything else, including
 * {@code ?wsdl&foo}, is the Documentation protocol (help page, or an operation page with {@code op}).
 */
public final class MetadataPages {
    /** Origins whose rendered bodies are kept per page, as ASMX keeps the first 10 address variants. */
    static final int CACHED_ORIGINS = 10;

    static final String XML_CONTENT_TYPE = "text/xml; charset=utf-8";
    static final String HTML_CONTENT_TYPE = "text/html; charset=utf-8";
    /** What {@code WebServiceHandler.PrepareContext} sets for a method without CacheDuration. */
    static final String CACHE_CONTROL = "private, max-age=0";

    static final String WSDL_NOT_FOUND = "XML Web service description was not found.";
    static final String SCHEMA_NOT_FOUND = "Schema not found.";

    private final String namespace;
    private final String endpointPath;
    private final String encodedEndpointPath;
    /** The WSDL for an origin's address: the generated one, or an operator's own with its addresses replaced. */
    private final Function<String, String> wsdl;
    private final DiscoDocument disco;
    private final HelpPages help;
    private final byte[] serviceList;
    private final MetadataCache wsdlCache = new MetadataCache(CACHED_ORIGINS);
    private final MetadataCache discoCache = new MetadataCache(CACHED_ORIGINS);
    private final Map<String, MetadataCache> operationCaches = Map.of(
            "WriteString", new MetadataCache(CACHED_ORIGINS), "WriteBytes", new MetadataCache(CACHED_ORIGINS));

    /** Metadata for a service in {@code namespace} at {@code endpointPath} with every protocol on. */
    public MetadataPages(String namespace, String endpointPath) {
        this(namespace, endpointPath, Protocols.all(), null);
    }

    /**
     * Metadata for a service in {@code namespace} at {@code endpointPath} (decoded, e.g. {@code /API/Store.asmx})
     * with {@code protocols} on, serving {@code operatorWsdl} (unless {@code null}) instead of the generated WSDL.
     *
     * @throws IllegalArgumentException if the namespace has a character XML cannot carry, or if the operator's
     *                                  WSDL does not describe this service
     */
    public MetadataPages(String namespace, String endpointPath, Protocols protocols, String operatorWsdl) {
        if (!MetadataEscaping.isXmlText(namespace)) {
            throw new IllegalArgumentException("namespace has a character XML does not allow: " + namespace);
        }
        this.namespace = namespace;
        this.endpointPath = endpointPath;
        this.encodedEndpointPath = MetadataEscaping.percentEncode(endpointPath, ":@/");
        this.wsdl = operatorWsdl == null ? new WsdlDocument(namespace, protocols)::render
                : OperatorWsdl.parse(operatorWsdl, namespace, protocols)::render;
        this.disco = new DiscoDocument(namespace, protocols);
        this.help = new HelpPages(namespace, endpointPath, protocols);
        this.serviceList = utf8(help.serviceList());
    }

    /** An operator's WSDL file's bytes as text: UTF-8, BOM or not; else an IllegalArgumentException. */
    public static String decodeWsdl(byte[] document) {
        return OperatorWsdl.decode(document);
    }

    /** The response to {@code request}, a GET whose path is exactly the endpoint path. */
    public CodecResponse respond(CodecRequest request) {
        MetadataQuery query = MetadataQuery.parse(request.rawQuery());
        String bare = query.get(null);
        // DiscoveryServerProtocol.WriteReturns checks in this order: schema id, wsdl id, ?wsdl, ?disco; it runs
        // after WebServiceHandler.PrepareContext, so its errors carry max-age 0 (wire notes §11)
        if (query.get("schema") != null) {
            // the schemas are inline in the WSDL: no id names one
            return ErrorPages.plainText(SCHEMA_NOT_FOUND, ErrorPages.CACHE_PREPARED);
        }
        if (query.get("wsdl") != null) {
            // there is one service description and it has no id
            return ErrorPages.plainText(WSDL_NOT_FOUND, ErrorPages.CACHE_PREPARED);
        }
        if ("wsdl".equalsIgnoreCase(bare)) {
            MetadataOrigin origin = MetadataOrigin.of(request);
            return ok(XML_CONTENT_TYPE, wsdlCache.get(origin.key(), key -> utf8(wsdl.apply(origin.address(encodedEndpointPath)))));
        }
        if ("disco".equalsIgnoreCase(bare)) {
            MetadataOrigin origin = MetadataOrigin.of(request);
            return ok(XML_CONTENT_TYPE, discoCache.get(origin.key(), key -> utf8(disco.render(origin.address(encodedEndpointPath)))));
        }
        String operation = query.get("op");
        if (operation == null) {
            return ok(HTML_CONTENT_TYPE, serviceList);
        }
        if (!help.hasOperation(operation)) {
            return ok(HTML_CONTENT_TYPE, utf8(help.methodNotFound(operation)));
        }
        MetadataOrigin origin = MetadataOrigin.of(request);
        boolean local = help.localPagesDiffer() && request.isLocal();
        Function<String, byte[]> render =
                key -> utf8(help.operation(operation, origin.address(encodedEndpointPath), origin.authority(), local));
        return ok(HTML_CONTENT_TYPE, operationCaches.get(operation).get(local ? "local " + origin.key() : origin.key(), render));
    }

    /** How many rendered bodies the caches hold; for tests of the bound. */
    int cachedBodies() {
        return wsdlCache.size() + discoCache.size()
                + operationCaches.values().stream().mapToInt(MetadataCache::size).sum();
    }

    /** The most {@link #cachedBodies()} can ever be: {@link #CACHED_ORIGINS} per cached page. */
    int maxCachedBodies() {
        return CACHED_ORIGINS * (2 + operationCaches.size());
    }

    private static CodecResponse ok(String contentType, byte[] body) {
        return CodecResponse.builder(200)
                .header("Cache-Control", CACHE_CONTROL)
                .header("Content-Type", contentType)
                .body(body)
                .build();
    }

    private static byte[] utf8(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public String toString() {
        return "MetadataPages{" + endpointPath + ", namespace=" + namespace + '}';
    }
}
