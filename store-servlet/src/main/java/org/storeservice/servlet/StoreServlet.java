package org.storeservice.servlet;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRegistration;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.api.Store;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.CodecRequest;
import org.storeservice.codec.CodecResponse;
import org.storeservice.codec.StoreCodec;

/**
 * Serves the Store endpoint in any Jakarta Servlet 6 container (Tomcat, Jetty EE10, Undertow) and answers
 * exactly as the Jetty adapter does: every binding, fault, metadata page and limit, from the same codec.
 *
 * <p>Map it with one path mapping, the endpoint path followed by {@code /*}, so that it takes the bare
 * endpoint (SOAP, WSDL, help pages) and the HTTP GET/POST operations below it:
 *
 * <pre>{@code
 * StoreServlet servlet = StoreServlet.builder(DefaultStore.of(storage)).build();
 * StoreServlet.register(servletContext, "/API/Store.asmx", servlet);  // or map "/API/Store.asmx/*" yourself
 * }</pre>
 *
 * <p>The endpoint's address, in the WSDL, the disco document and the help pages, is where the container
 * serves the servlet: its context path and mapping, with the scheme and the Host header of each request. A
 * servlet {@linkplain #builder(Store) built from a store} builds its codec for that path when the container
 * initializes it; one {@linkplain #of(StoreCodec) given a codec} checks that the codec's endpoint path is that
 * path, and fails to start otherwise.
 *
 * <p>Every method goes to the codec, which answers ASMX's 405 for those it does not take. <b>No thread waits for
 * a client:</b> the body is read with Servlet async I/O as it arrives, into the codec's
 * {@link org.storeservice.codec.RequestBodyBuffer} (memory within the codec's budget, then a temporary file),
 * exactly as the Jetty adapter reads it, and the codec runs on a container thread once the whole body is
 * there; so a client that trickles its body costs a connection and a little memory, never a thread. This needs
 * the registration to support async: {@link #register} and the Spring Boot starter say so; a registration of
 * your own must too ({@code <async-supported>true</async-supported>} in {@code web.xml},
 * {@code setAsyncSupported(true)} on a {@code ServletRegistration} or Jetty's {@code ServletHolder}). Without
 * it the same buffer is filled from the blocking stream, holding the container's thread while the client sends.
 * A body that stalls is bounded by the container's idle timeout and answered {@code 408}; one over the codec's
 * size limit is read and dropped up to twice the limit, so the client gets the fault. An unexpected failure of the codec becomes a plain
 * {@code 500} whose body names no internals; the exception goes to the log.
 */
public final class StoreServlet extends HttpServlet {
    private static final long serialVersionUID = 1L;
    private static final Logger log = LoggerFactory.getLogger(StoreServlet.class);
    /**
     * No async timeout: it would bound the whole exchange, cutting off a large body on a slow but working link.
     * A body that stalls is bounded by the container's idle timeout instead (Tomcat's {@code connectionTimeout},
     * Jetty's {@code idleTimeout}), which both report to the read listener as a failure: answered {@code 408}.
     */
    static final long ASYNC_TIMEOUT_MILLIS = 0;
    private static final byte[] INTERNAL_ERROR_BODY = "Internal Server Error".getBytes(StandardCharsets.UTF_8);

    /** Set when built from a store: what the codec is built from at {@link #init()}. */
    private final transient Store store;
    private final String namespace;
    private final transient CodecLimits limits;
    /** Set when given a codec: served as it is. */
    private final transient StoreCodec givenCodec;
    /** Whether the container was found calling without async support, which has been logged once. */
    private final AtomicBoolean warnedBlocking = new AtomicBoolean();
    /** The codec served, from {@link #init()} on. */
    private transient volatile StoreCodec codec;

    private StoreServlet(Store store, String namespace, CodecLimits limits, StoreCodec givenCodec) {
        this.store = store;
        this.namespace = namespace;
        this.limits = limits;
        this.givenCodec = givenCodec;
    }

    /** A servlet for {@code store}; its codec is built for the path the container serves it at. */
    public static Builder builder(Store store) {
        return new Builder(store);
    }

    /**
     * A servlet for {@code codec}, whose {@linkplain StoreCodec#endpointPath() endpoint path} must be the
     * servlet's context path followed by its mapping ({@code /app} and {@code /API/Store.asmx/*} make
     * {@code /app/API/Store.asmx}).
     */
    public static StoreServlet of(StoreCodec codec) {
        return new StoreServlet(null, null, null, Objects.requireNonNull(codec, "codec"));
    }

    /**
     * Registers {@code servlet} in {@code context} under the name {@code "store"}, mapped to {@code endpointPath}
     * (within the context, e.g. {@code /API/Store.asmx}) and everything below it, supporting async (bodies are
     * read with async I/O), and started with the context so that a misconfiguration shows at start-up. Call it while the context is being initialized
     * (a {@code ServletContainerInitializer} or {@code ServletContextListener}).
     *
     * @throws IllegalStateException if a servlet named {@code "store"} is registered already
     */
    public static ServletRegistration.Dynamic register(ServletContext context, String endpointPath,
            StoreServlet servlet) {
        ServletRegistration.Dynamic registration = context.addServlet("store", servlet);
        if (registration == null) {
            throw new IllegalStateException("A servlet named 'store' is registered already");
        }
        registration.addMapping(mapping(endpointPath));
        registration.setLoadOnStartup(1);
        registration.setAsyncSupported(true); // bodies are read with async I/O
        return registration;
    }

    /** The servlet mapping that serves {@code endpointPath} and everything below it: {@code endpointPath + "/*"}. */
    public static String mapping(String endpointPath) {
        Objects.requireNonNull(endpointPath, "endpointPath");
        if (!endpointPath.startsWith("/") || endpointPath.endsWith("/") || endpointPath.contains("*")) {
            throw new IllegalArgumentException(
                    "endpointPath must start with '/' and not end with '/' nor hold '*': " + endpointPath);
        }
        return endpointPath + "/*";
    }

    @Override
    public void init() throws ServletException {
        ServletContext context = getServletContext();
        ServletRegistration registration = context.getServletRegistration(getServletName());
        if (registration == null) {
            throw new ServletException("The container does not say where servlet " + getServletName() + " is mapped");
        }
        String endpointPath = context.getContextPath() + mappedPath(registration.getMappings());
        if (givenCodec == null) {
            codec = StoreCodec.builder(store).namespace(namespace).limits(limits).endpointPath(endpointPath).build();
        } else if (givenCodec.endpointPath().equals(endpointPath)) {
            codec = givenCodec;
        } else {
            throw new ServletException("StoreServlet is served at " + endpointPath + " but its codec at "
                    + givenCodec.endpointPath() + ": build the codec with endpointPath(\"" + endpointPath + "\")");
        }
        log.info("Store endpoint at {}", endpointPath);
    }

    /** The one path the mappings serve: {@code /x} for {@code /x/*} (and for {@code /x} itself). */
    static String mappedPath(Collection<String> mappings) throws ServletException {
        TreeSet<String> paths = new TreeSet<>();
        for (String mapping : mappings) {
            String path = mapping.endsWith("/*") ? mapping.substring(0, mapping.length() - 2) : mapping;
            if (!path.startsWith("/") || path.length() < 2 || path.endsWith("/") || path.contains("*")) {
                throw new ServletException("StoreServlet needs a path mapping such as /API/Store.asmx/*, not '"
                        + mapping + "'");
            }
            paths.add(path);
        }
        if (paths.size() != 1) {
            throw new ServletException("StoreServlet must be mapped at one endpoint path (as /API/Store.asmx/*), not "
                    + (paths.isEmpty() ? "none" : paths));
        }
        return paths.first();
    }

    @Override
    protected void service(HttpServletRequest request, HttpServletResponse response) throws IOException {
        if (!request.isAsyncSupported() && warnedBlocking.compareAndSet(false, true)) {
            log.warn("Servlet {} is called without async support (its registration, or a filter before it):"
                    + " each request body is read blocking, holding a container thread while the client sends;"
                    + " set asyncSupported", getServletName());
        }
        new BodyExchange(codec, request, response).start(ASYNC_TIMEOUT_MILLIS);
    }

    /**
     * The codec's answer to a request whose whole body is {@code body}, with every store call that may block on
     * this (container) thread; it completes with {@code null} after an unexpected failure (logged), never
     * exceptionally.
     */
    static CompletionStage<CodecResponse> answer(StoreCodec served, HttpServletRequest request, InputStream body,
            long bodyLength) {
        CompletionStage<CodecResponse> answer;
        try {
            answer = served.handleAsync(toCodecRequest(served, request, body, bodyLength), Runnable::run);
        } catch (RuntimeException | StackOverflowError e) {
            answer = CompletableFuture.failedFuture(e);
        }
        return answer.handle((response, failure) -> {
            if (failure == null) {
                return response;
            }
            // The codec promises never to throw for anything a client sent, so this is our bug or the
            // platform's: log it whole, tell the client nothing about it. StackOverflowError is the one
            // Error a hostile document could provoke in a parser; other Errors are left to the container.
            log.error("Unexpected failure answering {} {}", request.getMethod(), request.getRequestURI(), failure);
            return null;
        });
    }

    private static CodecRequest toCodecRequest(StoreCodec codec, HttpServletRequest request, InputStream body,
            long bodyLength) {
        // The container matched the mapping; the codec sees the endpoint path it serves plus the decoded path info.
        String pathInfo = request.getPathInfo();
        CodecRequest.Builder builder = CodecRequest.builder(request.getMethod(),
                        pathInfo == null ? codec.endpointPath() : codec.endpointPath() + pathInfo)
                .rawQuery(request.getQueryString())
                .scheme(request.getScheme())
                .clientAddresses(request.getRemoteAddr(), request.getLocalAddr())
                .body(body).bodyLength(bodyLength);
        for (String name : Collections.list(request.getHeaderNames())) {
            for (String value : Collections.list(request.getHeaders(name))) {
                builder.header(name, value);
            }
        }
        if (request.getHeader("Host") == null && !request.getProtocol().startsWith("HTTP/1.")) {
            // HTTP/2 and HTTP/3 carry the host as :authority, not a Host field; the WSDL's addresses need it.
            String host = request.getServerName();
            builder.header("Host", (host.indexOf(':') >= 0 ? '[' + host + ']' : host) + ':' + request.getServerPort());
        }
        return builder.build();
    }

    /** Writes the codec's answer, or a plain 500 if there is none. */
    static void write(CodecResponse answer, HttpServletResponse response) throws IOException {
        if (answer == null) {
            writeInternalError(response);
            return;
        }
        response.setStatus(answer.status());
        for (Map.Entry<String, String> header : answer.headers()) {
            // The length is ours to set, from the bytes actually sent.
            if (!header.getKey().equalsIgnoreCase("Content-Length")) {
                response.addHeader(header.getKey(), header.getValue());
            }
        }
        byte[] bytes = answer.bodyBytes(); // small: an envelope, a status document or a metadata page
        response.setContentLength(bytes.length);
        response.getOutputStream().write(bytes);
    }

    static void writeInternalError(HttpServletResponse response) throws IOException {
        writePlain(500, INTERNAL_ERROR_BODY, response);
    }

    static void writePlain(int status, byte[] text, HttpServletResponse response) throws IOException {
        response.setStatus(status);
        response.setContentType("text/plain; charset=utf-8");
        response.setContentLength(text.length);
        response.getOutputStream().write(text);
    }

    @Override
    public String toString() {
        StoreCodec served = codec;
        return "StoreServlet{" + (served != null ? served : givenCodec != null ? givenCodec : store) + '}';
    }

    /** Configures a {@link StoreServlet} built from a store. Not thread-safe. */
    public static final class Builder {
        private final Store store;
        private String namespace = StoreCodec.DEFAULT_NAMESPACE;
        private CodecLimits limits = CodecLimits.defaults();

        private Builder(Store store) {
            this.store = Objects.requireNonNull(store, "store");
        }

        /** The service's XML namespace; default {@value StoreCodec#DEFAULT_NAMESPACE}. */
        public Builder namespace(String namespace) {
            this.namespace = Objects.requireNonNull(namespace, "namespace");
            return this;
        }

        /** The codec's limits; default {@link CodecLimits#defaults()}. */
        public Builder limits(CodecLimits limits) {
            this.limits = Objects.requireNonNull(limits, "limits");
            return this;
        }

        /**
         * The servlet.
         *
         * @throws IllegalArgumentException if the namespace is empty or has a character XML cannot carry
         */
        public StoreServlet build() {
            // Checked now rather than when the container starts the servlet: a bad namespace is the caller's.
            StoreCodec.builder(store).namespace(namespace).limits(limits).build();
            return new StoreServlet(store, namespace, limits, null);
        }
    }
}
