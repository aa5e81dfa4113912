package org.storeservice.codec;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.api.Store;
import org.storeservice.codec.http.HttpEndpoint;
import org.storeservice.codec.metadata.MetadataPages;
import org.storeservice.codec.soap.SoapEndpoint;
import org.storeservice.codec.wire.ErrorPages;
import org.storeservice.codec.wire.XmlReaders;

/**
 * The service on the wire: turns one HTTP request at the endpoint (SOAP 1.1, SOAP 1.2, HTTP GET,
 * HTTP POST, or a GET for the WSDL, disco document or help pages) into a {@link Store} call, and its result
 * into the exact response an ASMX server would send.
 *
 * <p>Independent of any server: an adapter builds a {@link CodecRequest} and writes out the
 * {@link CodecResponse}. Immutable and thread-safe; build one per service and reuse it for every request.
 */
public final class StoreCodec {
    private static final Logger log = LoggerFactory.getLogger(StoreCodec.class);

    /** The default XML namespace of the service, as ASMX's {@code [WebService]} default. */
    public static final String DEFAULT_NAMESPACE = "http://tempuri.org/";
    /** The default endpoint path. */
    public static final String DEFAULT_ENDPOINT_PATH = "/API/Store.asmx";

    private final Store store;
    private final String namespace;
    private final String endpointPath;
    private final CodecLimits limits;
    private final Protocols protocols;
    private final ProtocolDispatch protocolDispatch;
    private final BodyMemoryBudget bodyMemoryBudget;
    private final TextMemory textMemory;
    private final long textMemoryWaitNanos;
    /** The longest body answered without blocking the calling thread (see {@link #handleAsync}). */
    private final long inlineBodyBytes;
    /** Told of every answer; {@code null} for none, and then no clock is read. */
    private final RequestObserver observer;

    private StoreCodec(Builder builder) {
        this.store = builder.store;
        this.namespace = builder.namespace;
        this.endpointPath = builder.endpointPath;
        this.limits = builder.limits;
        this.protocols = builder.protocols;
        XmlReaders xmlReaders = new XmlReaders(limits);
        this.protocolDispatch = new ProtocolDispatch(protocols,
                new SoapEndpoint(store, xmlReaders, namespace, limits, protocols),
                new HttpEndpoint(store, namespace, limits),
                new MetadataPages(namespace, endpointPath, protocols, builder.wsdl));
        this.bodyMemoryBudget = new BodyMemoryBudget(limits.bodyMemoryBudgetBytes());
        this.textMemory = new TextMemory(limits.textMemoryBytes());
        this.textMemoryWaitNanos = TimeUnit.MILLISECONDS.toNanos(limits.textMemoryWaitMillis());
        this.inlineBodyBytes = limits.spoolMemoryBytes() * 4L / 3;
        this.observer = builder.observer;
    }

    /**
     * {@return a builder of a codec that serves {@code store}}; configure it, then {@link Builder#build()}.
     *
     * @param store what the two operations call
     */
    public static Builder builder(Store store) {
        return new Builder(store);
    }

    /** {@return the service's XML namespace} */
    public String namespace() {
        return namespace;
    }

    /** {@return the endpoint path, as clients see it} */
    public String endpointPath() {
        return endpointPath;
    }

    /** The text memory's bytes reserved now: 0 once every request that took some was answered. */
    long textMemoryReserved() {
        return textMemory.reserved();
    }

    /** The requests waiting for text memory now. */
    int textMemoryWaiting() {
        return textMemory.waiting();
    }

    /** {@return the limits this codec reads requests within} */
    public CodecLimits limits() {
        return limits;
    }

    /** {@return the protocols this codec answers ({@link Builder#protocols})} */
    public Protocols protocols() {
        return protocols;
    }

    /**
     * {@return a buffer for one request's body}, for a server adapter that collects the body before calling
     * {@link #handle} (see {@link RequestBodyBuffer}); it shares this codec's {@link #bodyMemoryBudget()}.
     *
     * @param declaredLength the request's Content-Length, or {@code -1} if it has none
     */
    public RequestBodyBuffer newRequestBodyBuffer(long declaredLength) {
        return new RequestBodyBuffer(limits, bodyMemoryBudget, declaredLength);
    }

    /**
     * {@return the heap that this codec's request body buffers may hold together}
     * ({@link CodecLimits#bodyMemoryBudgetBytes()})
     */
    public BodyMemoryBudget bodyMemoryBudget() {
        return bodyMemoryBudget;
    }

    /**
     * {@return whether {@code path} belongs to this endpoint}: the endpoint path itself or anything below it.
     * Compared case-insensitively, as IIS compares paths.
     *
     * @param path the request's decoded path, without query
     */
    public boolean matches(String path) {
        if (path.length() < endpointPath.length()
                || !path.regionMatches(true, 0, endpointPath, 0, endpointPath.length())) {
            return false;
        }
        return path.length() == endpointPath.length() || path.charAt(endpointPath.length()) == '/';
    }

    /**
     * Answers one request at this endpoint. Never throws for anything the client sent: bad input gets a
     * SOAP fault or an HTTP error, as ASMX would answer it. Reads the body at most once; blocks while
     * reading it and while the store writes. The same as {@link #handleAsync} with every store call on this thread.
     *
     * @param request the request, its body included
     * @return the answer, to send as it is
     */
    public CodecResponse handle(CodecRequest request) {
        return handleAsync(request, Runnable::run).toCompletableFuture().join();
    }

    /**
     * Answers one request at this endpoint, as {@link #handle}, without blocking the calling thread when the
     * request's whole body is in memory and at most four thirds of {@link CodecLimits#spoolMemoryBytes()} long (so
     * content sent before its key stays in the spool's memory): decoding only computes, a WriteString goes to
     * {@link Store#writeStringAsync} and a WriteBytes, with its content read from the body in memory, to
     * {@link Store#writeBytesAsync} (a store that queues its writes completes the answer on the thread that committed
     * it, and no thread waits), and a store call that may block runs on {@code blockingWork}. The stage completes on
     * one of those threads, never exceptionally: an unexpected failure becomes a plain 500 (logged).
     *
     * @param request the request, its body included
     * @param blockingWork runs the work that may block; a caller on a thread that may block passes
     *     {@code Runnable::run}
     * @return the answer, to send as it is
     */
    public CompletionStage<CodecResponse> handleAsync(CodecRequest request, Executor blockingWork) {
        Objects.requireNonNull(blockingWork, "blockingWork");
        if (observer == null) {
            return answer(request, blockingWork);
        }
        long start = System.nanoTime();
        CountingInputStream body = new CountingInputStream(request.body());
        return answer(request.withBody(body), blockingWork).thenApply(response -> {
            long durationNanos = System.nanoTime() - start;
            try {
                observer.completed(new CompletedRequest(describe(request, response), response.status(),
                        Math.max(body.count(), declaredLength(request)), durationNanos));
            } catch (RuntimeException e) {
                log.warn("Request observer {} failed", observer, e);
            }
            return response;
        });
    }

    /**
     * What {@code request} asked for and how {@code response}, this codec's answer to it, ended: its binding,
     * operation and outcome, for access logs and metrics. Cheap: reads the method, path and query and what
     * the answer says of itself; the body is not touched.
     *
     * @param request a request this codec answered
     * @param response its answer
     * @return its binding, operation and outcome
     */
    public RequestKind describe(CodecRequest request, CodecResponse response) {
        return RequestKinds.of(this, request, response);
    }

    private CompletionStage<CodecResponse> answer(CodecRequest request, Executor blockingWork) {
        CompletionStage<CodecResponse> answer;
        // A larger body may be a large WriteString: it waits for its share of the text memory, on this thread (one
        // that may block, see handleAsync), before its text exists; after textMemoryWaitMillis it is answered 503.
        long textHeap = textHeap(request);
        try {
            if (textHeap > 0 && !textMemory.acquire(textHeap, textMemoryWaitNanos)) {
                log.warn("No text memory for {} within {} ms: answered 503", request, limits.textMemoryWaitMillis());
                return CompletableFuture.completedFuture(ErrorPages.serviceUnavailable());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CompletableFuture.completedFuture(ErrorPages.internalError());
        }
        boolean answered = false;
        try {
            answer = dispatch(request, blockingWork);
            answered = true;
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
            answered = true;
        } finally {
            // An Error (a StackOverflowError, an OutOfMemoryError) leaves without an answer: give the memory back now.
            if (textHeap > 0 && !answered) {
                textMemory.release(textHeap);
            }
        }
        if (textHeap > 0) {
            answer = answer.whenComplete((response, failure) -> textMemory.release(textHeap));
        }
        return answer.exceptionally(failure -> {
            log.error("Failed to answer {}", request, failure);
            return ErrorPages.internalError();
        });
    }

    /**
     * The text memory {@code request} must reserve before it is decoded ({@link TextMemory#heapFor}): none if routing
     * sends it to a WriteBytes whose content is streamed (SOAP, by its SOAPAction or SOAP 1.2 action). An HTTP POST
     * WriteBytes reserves too: its form, content included, is held as text until it is answered.
     */
    long textHeap(CodecRequest request) {
        long heap = TextMemory.heapFor(request, inlineBodyBytes, limits.maxRequestBytes());
        return heap > 0 && matches(request.path()) && protocolDispatch.streamsContent(request,
                request.path().substring(endpointPath.length())) ? 0 : heap;
    }

    /** The declared Content-Length; -1 if none or not a number. */
    private static long declaredLength(CodecRequest request) {
        String contentLength = request.header("Content-Length");
        if (contentLength == null) {
            return -1;
        }
        try {
            return Long.parseLong(contentLength.strip());
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** ASMX's protocol selection (wire notes §0): see {@link ProtocolDispatch}. */
    private CompletionStage<CodecResponse> dispatch(CodecRequest request, Executor blockingWork) {
        if (!matches(request.path())) {
            return CompletableFuture.completedFuture(ErrorPages.notFound());
        }
        if (request.rawQuery().length() > limits.maxQueryStringLength()) {
            // ASP.NET checks before any protocol is chosen
            return CompletableFuture.completedFuture(ErrorPages.queryStringTooLong());
        }
        return protocolDispatch.dispatch(request, request.path().substring(endpointPath.length()), blockingWork);
    }

    /** Builds a {@link StoreCodec}. Not thread-safe. */
    public static final class Builder {
        private final Store store;
        private String namespace = DEFAULT_NAMESPACE;
        private String endpointPath = DEFAULT_ENDPOINT_PATH;
        private CodecLimits limits = CodecLimits.defaults();
        private Protocols protocols = Protocols.all();
        private String wsdl;
        private RequestObserver observer;

        private Builder(Store store) {
            this.store = Objects.requireNonNull(store, "store");
        }

        /**
         * Sets the service's XML namespace; default {@value #DEFAULT_NAMESPACE}.
         *
         * @param namespace the namespace URI, as the clients' proxies were generated with
         * @return this builder
         */
        public Builder namespace(String namespace) {
            if (Objects.requireNonNull(namespace, "namespace").isEmpty()) {
                throw new IllegalArgumentException("namespace must not be empty");
            }
            this.namespace = namespace;
            return this;
        }

        /**
         * Sets the endpoint path; default {@value #DEFAULT_ENDPOINT_PATH}.
         *
         * @param endpointPath the path clients call, starting with {@code '/'} and not ending with it
         * @return this builder
         */
        public Builder endpointPath(String endpointPath) {
            Objects.requireNonNull(endpointPath, "endpointPath");
            if (!endpointPath.startsWith("/") || endpointPath.endsWith("/")) {
                throw new IllegalArgumentException(
                        "endpointPath must start with '/' and not end with '/': " + endpointPath);
            }
            this.endpointPath = endpointPath;
            return this;
        }

        /**
         * Sets the limits requests are read within; default {@link CodecLimits#defaults()}.
         *
         * @param limits the limits
         * @return this builder
         */
        public Builder limits(CodecLimits limits) {
            this.limits = Objects.requireNonNull(limits, "limits");
            return this;
        }

        /**
         * Tells {@code observer} of every answered request (see {@link RequestObserver}); none by default, and
         * then the codec reads no clock and counts no bytes.
         *
         * @param observer told of each answered request
         * @return this builder
         */
        public Builder observer(RequestObserver observer) {
            this.observer = Objects.requireNonNull(observer, "observer");
            return this;
        }

        /**
         * Which protocols are on, as web.config's {@code <webServices><protocols>}; default {@link Protocols#all()}.
         * A protocol that is off answers as ASMX answers it removed, and the WSDL, disco and help pages leave it out.
         *
         * @param protocols the protocols that are on
         * @return this builder
         */
        public Builder protocols(Protocols protocols) {
            this.protocols = Objects.requireNonNull(protocols, "protocols");
            return this;
        }

        /**
         * Serve {@code document}, an operator's own WSDL (e.g. the one the clients were generated from), on
         * {@code ?wsdl} instead of the generated one, with every port's address rewritten to the address the
         * client used, as ASMX rewrites its own. {@link #build()} checks that it describes this service: the
         * codec's namespace, the operations WriteString and WriteBytes with the right messages, and a binding
         * for every enabled protocol; {@code null} (the default) serves the generated WSDL.
         *
         * @param document the WSDL, or {@code null}
         * @return this builder
         */
        public Builder wsdl(String document) {
            this.wsdl = document;
            return this;
        }

        /**
         * As {@link #wsdl(String)}, for the document's bytes.
         *
         * @param document the WSDL, whose XML declaration or byte-order mark gives the encoding; or {@code null}
         * @return this builder
         */
        public Builder wsdl(byte[] document) {
            this.wsdl = document == null ? null : MetadataPages.decodeWsdl(document);
            return this;
        }

        /**
         * {@return the codec}
         *
         * @throws IllegalArgumentException if an operator's {@link #wsdl} does not describe this service, saying
         *                                  precisely what differs
         */
        public StoreCodec build() {
            return new StoreCodec(this);
        }
    }

    @Override
    public String toString() {
        return "StoreCodec{" + endpointPath + ", namespace=" + namespace + ", " + store + '}';
    }
}
