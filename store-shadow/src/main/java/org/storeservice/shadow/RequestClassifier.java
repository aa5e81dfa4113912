package org.storeservice.shadow;

import java.io.InputStream;
import java.util.List;
import java.util.Map;
import org.storeservice.api.Status;
import org.storeservice.api.Store;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.CodecRequest;
import org.storeservice.codec.CodecResponse;
import org.storeservice.codec.Protocols;
import org.storeservice.codec.RequestKind;
import org.storeservice.codec.StoreCodec;

/**
 * Says what a request at the endpoint is (its binding and operation) and, for a write, the key it writes, as the
 * service reads it: the request goes through the codec itself (ASMX's dispatch, SOAPAction routing, parameter and
 * encoding rules), over a {@link Store} that only notes the key, so the key is exactly the one both services store,
 * however it was sent. Every protocol is on and the XML text limits are as wide as the proxy's body limit, so that a
 * write either service could take is recognised. Reads the body; stores nothing. Thread-safe.
 */
final class RequestClassifier {
    private final StoreCodec codec;
    /** The key of the write being classified on this thread (the noting store runs on the calling thread). */
    private final ThreadLocal<String[]> noted = new ThreadLocal<>();

    RequestClassifier(String namespace, String endpointPath, long maxBodyBytes) {
        int textLength = (int) Math.min(Integer.MAX_VALUE, maxBodyBytes);
        codec = StoreCodec.builder(new NotingStore())
                .namespace(namespace)
                .endpointPath(endpointPath)
                .protocols(Protocols.all())
                .limits(CodecLimits.builder().maxRequestBytes(maxBodyBytes).maxTextLength(textLength).build())
                .build();
    }

    /** Whether {@code path} (decoded) is the endpoint or below it: the requests the proxy mirrors. */
    boolean atEndpoint(String path) {
        return codec.matches(path);
    }

    /**
     * What the request is.
     *
     * @param path the decoded path
     * @param rawQuery the query as sent, or {@code null}
     * @param headers the request's headers, names as sent
     * @param body the whole body
     * @param remoteAddress the client's address (HttpPostLocalhost is on here either way)
     */
    Classification classify(String method, String path, String rawQuery, List<Map.Entry<String, String>> headers,
            InputStream body, long bodyLength, String remoteAddress) {
        CodecRequest.Builder request = CodecRequest.builder(method, path).rawQuery(rawQuery)
                .clientAddresses(remoteAddress, null).body(body).bodyLength(bodyLength);
        for (Map.Entry<String, String> header : headers) {
            request.header(header.getKey(), header.getValue());
        }
        CodecRequest built = request.build();
        String[] key = new String[1];
        noted.set(key);
        try {
            CodecResponse response = codec.handle(built);
            RequestKind kind = codec.describe(built, response);
            return new Classification(kind.binding(), kind.operation(), key[0]);
        } finally {
            noted.remove();
        }
    }

    /** Notes the key of the write the codec decoded, and stores nothing. */
    private final class NotingStore implements Store {
        @Override
        public Status writeString(String key, String value) {
            return note(key);
        }

        @Override
        public Status writeBytes(String key, InputStream content) {
            return note(key); // the content is not needed; the codec reads the rest of the document itself
        }

        private Status note(String key) {
            String[] slot = noted.get();
            if (slot != null) {
                slot[0] = key;
            }
            return Status.SUCCESS;
        }

        @Override
        public boolean writesNeverBlock() {
            return true; // so the codec calls it on the classifying thread, where the slot is
        }
    }
}
