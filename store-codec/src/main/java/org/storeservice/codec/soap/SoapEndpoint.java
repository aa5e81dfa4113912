package org.storeservice.codec.soap;

import java.io.IOException;
import java.io.InputStream;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Set;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.api.ContentStreamException;
import org.storeservice.api.Status;
import org.storeservice.api.Store;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.Protocol;
import org.storeservice.codec.Protocols;
import org.storeservice.codec.CodecRequest;
import org.storeservice.codec.CodecResponse;
import org.storeservice.codec.content.fast.FastPathPolicy;
import org.storeservice.codec.wire.Failures;
import org.storeservice.codec.wire.Operation;
import org.storeservice.codec.wire.RequestBody;
import org.storeservice.codec.wire.RequestTooLargeException;
import org.storeservice.codec.wire.XmlReaders;

/**
 * A SOAP POST to the endpoint: decodes it, calls the store, encodes the result or the fault.
 * Thread-safe; built once per codec.
 */
public final class SoapEndpoint {
    private static final Logger log = LoggerFactory.getLogger(SoapEndpoint.class);

    private final Store store;
    private final SoapDecoder decoder;
    private final CodecLimits limits;
    private final Map<SoapVersion, SoapEncoder> encoders = new EnumMap<>(SoapVersion.class);

    public SoapEndpoint(Store store, XmlReaders xmlReaders, String namespace, CodecLimits limits) {
        this(store, xmlReaders, namespace, limits, FastPathPolicy.standard(), EnumSet.allOf(SoapVersion.class));
    }

    /** An endpoint for the SOAP versions {@code protocols} has on (HttpSoap, HttpSoap12). */
    public SoapEndpoint(Store store, XmlReaders xmlReaders, String namespace, CodecLimits limits, Protocols protocols) {
        this(store, xmlReaders, namespace, limits, FastPathPolicy.standard(), versions(protocols));
    }

    /** The SOAP versions whose protocol is on; both when neither is (no SOAP request reaches this endpoint then). */
    private static Set<SoapVersion> versions(Protocols protocols) {
        Set<SoapVersion> versions = EnumSet.noneOf(SoapVersion.class);
        if (protocols.contains(Protocol.HTTP_SOAP)) {
            versions.add(SoapVersion.SOAP_11);
        }
        if (protocols.contains(Protocol.HTTP_SOAP12)) {
            versions.add(SoapVersion.SOAP_12);
        }
        return versions.isEmpty() ? EnumSet.allOf(SoapVersion.class) : versions;
    }

    public SoapEndpoint(Store store, XmlReaders xmlReaders, String namespace, CodecLimits limits, FastPathPolicy fastPath) {
        this(store, xmlReaders, namespace, limits, fastPath, EnumSet.allOf(SoapVersion.class));
    }

    private SoapEndpoint(Store store, XmlReaders xmlReaders, String namespace, CodecLimits limits,
            FastPathPolicy fastPath, Set<SoapVersion> enabled) {
        this.store = store;
        this.decoder = new SoapDecoder(xmlReaders, namespace, limits, fastPath, enabled);
        this.limits = limits;
        for (SoapVersion version : SoapVersion.values()) {
            encoders.put(version, new SoapEncoder(version, namespace, enabled));
        }
    }

    /**
     * The operation {@code request}'s headers route it to, before its envelope is read (its SOAPAction, or its SOAP 1.2
     * action); {@code null} when the envelope decides.
     */
    public Operation routedOperation(CodecRequest request) {
        return decoder.routedOperation(request.header("Content-Type"), request.header("SOAPAction"));
    }

    /**
     * Answers a SOAP request: decodes it on this thread; then a WriteString goes to the store's
     * {@link Store#writeStringAsync}, and a WriteBytes, whose content the store reads from the document as it is
     * decoded, to its {@link Store#writeBytesAsync}. Never completes exceptionally for anything the client sent.
     */
    public CompletionStage<CodecResponse> handle(CodecRequest request, Executor blockingWork) {
        String contentType = request.header("Content-Type");
        String soapAction = request.header("SOAPAction");
        SoapCall call;
        try {
            RequestBody body = RequestBody.of(request, limits.maxRequestBytes());
            call = decoder.decode(contentType, soapAction, body, body.declaredLength());
        } catch (RequestTooLargeException e) {
            return CompletableFuture.completedFuture(
                    fault(SoapFault.tooLarge(SoapDecoder.guessVersion(contentType, soapAction))));
        } catch (SoapFault fault) {
            return CompletableFuture.completedFuture(fault(fault));
        }
        CompletionStage<CodecResponse> answer;
        try {
            answer = call.operation() == Operation.WRITE_STRING
                    ? writeString(call, blockingWork)
                    : writeBytes(call, blockingWork);
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        return answer.whenComplete((response, failure) -> call.close());
    }

    /** The document was read to its end when decoded: nothing of it is left for after the write. */
    private CompletionStage<CodecResponse> writeString(SoapCall call, Executor blockingWork) {
        try {
            call.finish();
        } catch (SoapFault fault) {
            return CompletableFuture.completedFuture(fault(fault));
        }
        CompletionStage<Status> status;
        try {
            status = store.writeStringAsync(call.key(), call.value(), blockingWork);
        } catch (RuntimeException e) {
            status = CompletableFuture.failedFuture(e);
        }
        return status.handle((written, failure) -> failure == null
                ? encoders.get(call.version()).success(call.operation(), written)
                : storeFailed(call, Failures.cause(failure)));
    }

    /**
     * Streams the content to the store's {@link Store#writeBytesAsync} (which reads it to its end, and so the document
     * too, here or on {@code blockingWork}), then reads whatever of the document the store left unread. What the store
     * fails with is answered with a fault; an unchecked failure of the body itself (some servers' streams throw one) is
     * let through.
     */
    private CompletionStage<CodecResponse> writeBytes(SoapCall call, Executor blockingWork) {
        InputStream content;
        try {
            content = call.content();
        } catch (IOException e) {
            return CompletableFuture.completedFuture(fault(contentFault(call, e)));
        }
        CompletionStage<Status> status;
        try {
            status = store.writeBytesAsync(call.key(), content, blockingWork);
        } catch (RuntimeException e) {
            status = CompletableFuture.failedFuture(e);
        }
        return status.handle((written, failure) -> {
            closeQuietly(content);
            if (failure != null) {
                Exception cause = Failures.cause(failure);
                return cause instanceof ContentStreamException || cause instanceof IOException
                        ? fault(contentFault(call, cause))
                        : storeFailed(call, cause);
            }
            try {
                call.finish();
            } catch (SoapFault fault) {
                return fault(fault);
            }
            return encoders.get(call.version()).success(call.operation(), written);
        });
    }

    private static void closeQuietly(InputStream content) {
        if (content == null) {
            return;
        }
        try {
            content.close();
        } catch (IOException e) {
            log.debug("Could not close the content", e);
        }
    }

    /** The answer to a store that threw (or failed its stage) instead of answering a status. */
    private CodecResponse storeFailed(SoapCall call, Exception cause) {
        if (call.contentFailure() != null) {
            return fault(call.contentFailure()); // the store wrapped our stream's failure in its own exception
        }
        log.warn("The store failed on {}", call.operation().wireName(), cause);
        return fault(SoapFault.storeFailed(call.version(), String.valueOf(cause.getMessage())));
    }

    private static SoapFault contentFault(SoapCall call, Exception e) {
        if (call.contentFailure() != null) {
            return call.contentFailure();
        }
        // reading the spool failed: the server's disk, not the client's request
        log.warn("Could not read the spooled content of {}", call.operation().wireName(), e);
        return SoapFault.storeFailed(call.version(), String.valueOf(e.getMessage()));
    }

    private CodecResponse fault(SoapFault fault) {
        return encoders.get(fault.version()).fault(fault);
    }
}
