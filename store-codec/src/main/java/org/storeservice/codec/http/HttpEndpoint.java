package org.storeservice.codec.http;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.api.Status;
import org.storeservice.api.Store;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.CodecRequest;
import org.storeservice.codec.CodecResponse;
import org.storeservice.codec.wire.ErrorPages;
import org.storeservice.codec.wire.Failures;
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

    /**
     * Answers a GET ({@code post} false) or POST whose path info is {@code pathInfo} (at least 2 chars). Decodes
     * on this thread; a WriteString goes to the store's {@link Store#writeStringAsync}, a WriteBytes to its
     * {@link Store#writeBytesAsync}.
     */
    public CompletionStage<CodecResponse> handle(CodecRequest request, String pathInfo, boolean post,
            Executor blockingWork) {
        HttpCall call;
        try {
            Operation operation = operation(pathInfo);
            call = post
                    ? postDecoder.decode(operation, request.header("Content-Type"),
                            RequestBody.of(request, limits.maxRequestBytes()))
                    : getDecoder.decode(operation, request.rawQuery());
        } catch (HttpError e) {
            return CompletableFuture.completedFuture(encoder.error(e));
        } catch (IOException e) {
            // RequestTooLargeException, or the connection failed while reading the form
            return CompletableFuture.completedFuture(encoder.error(new HttpError(e instanceof RequestTooLargeException
                    ? RequestTooLargeException.MESSAGE : "Server was unable to read request.")));
        }
        CompletionStage<Status> status;
        try {
            status = call.operation() == Operation.WRITE_STRING
                    ? store.writeStringAsync(call.key(), call.value(), blockingWork)
                    : store.writeBytesAsync(call.key(),
                            call.content() == null ? null : new ByteArrayInputStream(call.content()), blockingWork);
        } catch (RuntimeException e) {
            status = CompletableFuture.failedFuture(e);
        }
        return status.handle((written, failure) -> failure == null ? encoder.success(written) : storeFailed(call, failure));
    }

    /** The answer to a store that threw (or failed its stage) instead of answering a status. */
    private CodecResponse storeFailed(HttpCall call, Throwable failure) {
        Exception cause = Failures.cause(failure);
        log.warn("The store failed on {}", call.operation().wireName(), cause);
        return encoder.error(new HttpError(ErrorPages.UNABLE_TO_PROCESS + cause.getMessage()));
    }

    /**
     * The operation {@code pathInfo} ({@code /WriteString}) names, as {@link #handle} routes it: case-sensitively;
     * {@code null} for none.
     */
    private static Operation routedOperation(String pathInfo) {
        return Operation.byWireName(pathInfo.substring(1));
    }

    /** The operation {@code pathInfo} names, or ASMX's error for a wrong name. */
    private static Operation operation(String pathInfo) throws HttpError {
        Operation operation = routedOperation(pathInfo);
        if (operation != null) {
            return operation;
        }
        String name = pathInfo.substring(1);
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
