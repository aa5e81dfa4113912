package org.storeservice.codec.http;

import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.api.Status;
import org.storeservice.api.Store;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.CodecRequest;
import org.storeservice.codec.CodecResponse;
import org.storeservice.codec.wire.ErrorPages;
import org.storeservice.codec.wire.Operation;
import org.storeservice.codec.wire.RequestBody;
import org.storeservice.codec.wire.RequestTooLargeException;

/**
 * An HTTP GET or POST call ({@code /API/Store.asmx/WriteString}): checks the method name as ASMX does,
 * decodes, calls the store, encodes. Thread-safe; built once per codec.
 */
public final class HttpEndpoint {
    private static final Logger log = LoggerFactory.getLogger(HttpEndpoint.class);

    private final Store store;
    private final CodecLimits limits;
    private final HttpGetDecoder getDecoder;
    private final HttpPostDecoder postDecoder;
    private final HttpEncoder encoder;

    public HttpEndpoint(Store store, String namespace, CodecLimits limits) {
        this.store = store;
        this.limits = limits;
        HttpParameterReader parameters = new HttpParameterReader(limits);
        this.getDecoder = new HttpGetDecoder(parameters);
        this.postDecoder = new HttpPostDecoder(parameters);
        this.encoder = new HttpEncoder(namespace);
    }

    /** Answers a GET ({@code post} false) or POST whose path info is {@code pathInfo} (at least 2 chars). */
    public CodecResponse handle(CodecRequest request, String pathInfo, boolean post) {
        try {
            Operation operation = operation(pathInfo.substring(1));
            HttpCall call = post
                    ? postDecoder.decode(operation, request.header("Content-Type"),
                            RequestBody.of(request, limits.maxRequestBytes()))
                    : getDecoder.decode(operation, request.rawQuery());
            return encoder.success(invoke(call));
        } catch (HttpError e) {
            return encoder.error(e);
        } catch (IOException e) {
            // RequestTooLargeException, or the connection failed while reading the form
            return encoder.error(new HttpError(e instanceof RequestTooLargeException
                    ? RequestTooLargeException.MESSAGE : "Server was unable to read request."));
        }
    }

    private Status invoke(HttpCall call) throws HttpError {
        try {
            return call.operation() == Operation.WRITE_STRING
                    ? store.writeString(call.key(), call.value())
                    : store.writeBytes(call.key(), call.content());
        } catch (RuntimeException e) {
            log.warn("The store failed on {}", call.operation().wireName(), e);
            throw new HttpError(ErrorPages.UNABLE_TO_PROCESS + e.getMessage());
        }
    }

    /** The operation named {@code name}, case-sensitively, or ASMX's error for a wrong name. */
    private static Operation operation(String name) throws HttpError {
        Operation operation = Operation.byWireName(name);
        if (operation != null) {
            return operation;
        }
        for (Operation candidate : Operation.values()) {
            if (candidate.wireName().equalsIgnoreCase(name)) {
                throw new HttpError("Invalid method name '" + name + "',  method names are case sensitive.   "
                        + "The method name '" + candidate.wireName()
                        + "' with the same name but different casing was found.\r\nParameter name: methodName");
            }
        }
        throw new HttpError(name + " Web Service method name is not valid.");
    }
}
