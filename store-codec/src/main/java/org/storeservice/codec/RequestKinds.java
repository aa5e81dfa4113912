package org.storeservice.codec;

import org.storeservice.api.Status;
import org.storeservice.codec.wire.Operation;

/**
 * Classifies an answered request by binding, operation and outcome ({@link StoreCodec#describe}), from the
 * request's method, path and query and what the answer says of itself: the same dispatch table as
 * {@link StoreCodec}'s, read backwards. Every value comes from a fixed set, never from the client's text.
 */
final class RequestKinds {
    static final String WSDL = "wsdl";
    static final String DISCO = "disco";
    static final String HELP = "help";
    private static final String SOAP_12_MEDIA_TYPE = "application/soap+xml";
    private static final String SOAP_11_MEDIA_TYPE = "text/xml";

    private RequestKinds() {
    }

    static RequestKind of(StoreCodec codec, CodecRequest request, CodecResponse response) {
        String path = request.path();
        if (!codec.matches(path)) {
            return new RequestKind(Binding.NONE, RequestKind.NO_OPERATION, httpOutcome(response.status()));
        }
        String pathInfo = path.substring(codec.endpointPath().length());
        String method = request.method();
        if (pathInfo.isEmpty()) {
            return switch (method) {
                case "POST" -> soap(response);
                case "GET" -> new RequestKind(Binding.METADATA, metadataOperation(request.rawQuery()),
                        httpOutcome(response.status()));
                default -> new RequestKind(Binding.NONE, RequestKind.NO_OPERATION, httpOutcome(response.status()));
            };
        }
        if (pathInfo.length() >= 2 && (method.equals("GET") || method.equals("POST"))) {
            Operation operation = Operation.byWireName(pathInfo.substring(1));
            return new RequestKind(method.equals("GET") ? Binding.HTTP_GET : Binding.HTTP_POST,
                    operation == null ? RequestKind.NO_OPERATION : operation.wireName(), outcome(response, false));
        }
        return new RequestKind(Binding.NONE, RequestKind.NO_OPERATION, httpOutcome(response.status()));
    }

    /** A SOAP answer is in the envelope's version, so its media type tells the binding. */
    private static RequestKind soap(CodecResponse response) {
        String contentType = response.header("Content-Type");
        boolean soap12 = contentType != null && contentType.regionMatches(true, 0, SOAP_12_MEDIA_TYPE, 0, SOAP_12_MEDIA_TYPE.length());
        boolean soap11 = contentType != null && contentType.regionMatches(true, 0, SOAP_11_MEDIA_TYPE, 0, SOAP_11_MEDIA_TYPE.length());
        String operation = response.operation();
        return new RequestKind(soap12 ? Binding.SOAP12 : Binding.SOAP11,
                operation == null ? RequestKind.NO_OPERATION : operation, outcome(response, soap11 || soap12));
    }

    private static Outcome outcome(CodecResponse response, boolean soapEnvelope) {
        Status result = response.writeResult();
        if (result != null) {
            return result == Status.SUCCESS ? Outcome.SUCCESS : Outcome.ERROR;
        }
        if (soapEnvelope && response.status() >= 400) {
            return Outcome.FAULT;
        }
        return httpOutcome(response.status());
    }

    private static Outcome httpOutcome(int status) {
        if (status >= 500) {
            return Outcome.SERVER_ERROR;
        }
        return status >= 400 ? Outcome.CLIENT_ERROR : Outcome.SUCCESS;
    }

    /** As ASMX reads the query: a bare {@code wsdl} or {@code disco} (any case) is that document, else a help page. */
    private static String metadataOperation(String rawQuery) {
        if (WSDL.equalsIgnoreCase(rawQuery)) {
            return WSDL;
        }
        return DISCO.equalsIgnoreCase(rawQuery) ? DISCO : HELP;
    }
}
