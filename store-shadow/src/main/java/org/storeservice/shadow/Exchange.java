package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.US_ASCII;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeoutException;
import org.eclipse.jetty.client.AsyncRequestContent;
import org.eclipse.jetty.client.Result;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpFields;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpStatus;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.BufferUtil;
import org.eclipse.jetty.util.Callback;
import org.eclipse.jetty.util.IteratingCallback;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.storeservice.codec.Binding;

/**
 * One client request through the proxy, from its head to the copy queued for the shadow.
 *
 * <ol>
 *   <li><b>Body.</b> Read as it arrives, without a thread waiting, into the one {@link BodyCopy} (memory within the
 *       proxy's budget, else a temporary file).</li>
 *   <li><b>What it is.</b> At the endpoint, the {@link RequestClassifier} reads its binding, operation and, for a
 *       write, its key.</li>
 *   <li><b>Its turn.</b> A write waits for its key's turn ({@link KeyTurns}): one write of a key at a time.</li>
 *   <li><b>The primary.</b> Sent once, from the copy, with the client's headers ({@link ForwardedHeaders}). Its answer
 *       goes to the client as it comes, status line, headers and body as the primary sent them ({@link ClientWriter}:
 *       the primary is read on while the client takes its answer, within a bound); the first bytes are kept for the
 *       comparison ({@link AnswerCopy}). A metadata answer (WSDL, disco, help page) is held whole and names the proxy's
 *       address where the primary named its own ({@link AddressRewriter}).</li>
 *   <li><b>The copy.</b> Once the primary has answered, the request and the primary's answer are queued for the
 *       shadow ({@link ShadowQueue}), then the key's turn is given back, whether or not the client has read its answer
 *       yet. A client that went away meanwhile changes nothing: the primary's answer is read to its end and the copy
 *       queued all the same, so both stores get the write.</li>
 * </ol>
 *
 * <p>A body larger than the proxy copies is not held: it streams to the primary as it arrives and is neither read nor
 * mirrored. The primary failing to answer gets the client {@code 502} ({@code 504} for a time-out), and a write's
 * key listed: the primary may have applied it.
 */
final class Exchange {
    private static final Logger log = LoggerFactory.getLogger(ShadowProxy.class);
    /** Response headers that belong to the primary's connection, not to the answer. */
    private static final Set<String> ONE_HOP = Set.of("connection", "keep-alive", "proxy-connection",
            "transfer-encoding", "te", "trailer", "upgrade");

    private final Exchanges exchanges;
    private final Request request;
    private final Response response;
    private final Callback callback;
    private final Instant time = Instant.now();
    private final String method;
    private final String rawPath;
    private final String rawQuery;
    private final String decodedPath;
    private final long declaredLength;
    /** Whether the client sent a body (Content-Length, even 0, or chunked): the copies send one, with its length. */
    private final boolean framed;
    private final List<HttpField> forwarded;
    /**
     * How the client called the proxy: its scheme and its {@code Host}, or what a trusted proxy's forwarded headers
     * name, for a metadata answer's addresses.
     */
    private final String clientScheme;
    private final String clientHost;
    /** The {@code Host} the primary is sent: its host with the primary's port names the primary too (Mono's way). */
    private final String sentHost;

    private BodyCopy copy;
    private Classification classification = Classification.UNREAD;
    private boolean atEndpoint;
    private boolean streamed;
    private AnswerCopy answer;
    private ClientWriter writer;
    /** A write sent out of its key's turn, too many writes of the key waiting: not mirrored, its key listed. */
    private boolean outOfTurn;
    /** Whether the primary's answer is held whole, to name the proxy's address in it: a metadata answer. */
    private boolean holding;
    /** What the held metadata answer reserved in the proxy's {@link ClientAnswerBudget}. */
    private long heldReserved;
    /** Set once the primary's status and headers were put on the client's response. */
    private volatile boolean headersCopied;

    Exchange(Exchanges exchanges, Request request, Response response, Callback callback) {
        this.exchanges = exchanges;
        this.request = request;
        this.response = response;
        this.callback = callback;
        this.method = request.getMethod();
        this.rawPath = request.getHttpURI().getPath();
        this.rawQuery = request.getHttpURI().getQuery();
        String decoded;
        try {
            decoded = request.getHttpURI().getDecodedPath();
        } catch (RuntimeException e) {
            decoded = null; // a path that does not decode: the primary's to answer, nothing to mirror
        }
        this.decodedPath = decoded;
        this.declaredLength = request.getLength();
        this.framed = declaredLength >= 0 || request.getHeaders().contains(HttpHeader.TRANSFER_ENCODING);
        List<HttpField> headers = exchanges.forwardedHeaders.of(request.getHeaders(),
                request.getConnectionMetaData().getRemoteSocketAddress());
        if (declaredLength == 0) {
            headers.add(new HttpField(HttpHeader.CONTENT_LENGTH, "0")); // sent as the client sent it
        }
        this.forwarded = headers;
        String host = request.getHeaders().get(HttpHeader.HOST);
        ForwardedHeaders.CalledAddress called = exchanges.forwardedHeaders.calledAddress(request.getHeaders(),
                request.getConnectionMetaData().getRemoteSocketAddress(),
                request.getHttpURI().getScheme() == null ? "http" : request.getHttpURI().getScheme(),
                host != null && !host.isBlank() ? host.strip()
                        : Request.getServerName(request) + ":" + Request.getServerPort(request));
        this.sentHost = host != null && !host.isBlank() ? host.strip() : called.host();
        this.clientScheme = called.scheme();
        this.clientHost = called.host();
    }

    void start() {
        atEndpoint = decodedPath != null && exchanges.classifier.atEndpoint(decodedPath);
        if (declaredLength > exchanges.maxBodyBytes) {
            stream(null);
            return;
        }
        copy = new BodyCopy(exchanges.memory, exchanges.maxBodyBytes, declaredLength);
        readBody();
    }

    /** Reads what has arrived of the body into the copy, then asks to be called again; never waits. */
    private void readBody() {
        while (true) {
            Content.Chunk chunk = request.read();
            if (chunk == null) {
                request.demand(this::readBody);
                return;
            }
            if (Content.Chunk.isFailure(chunk)) {
                copy.close();
                callback.failed(chunk.getFailure()); // the client went away before its request was whole: nothing sent
                return;
            }
            ByteBuffer bytes = chunk.getByteBuffer();
            if (copy.wouldOverflow(bytes.remaining())) {
                stream(chunk);
                return;
            }
            boolean last = chunk.isLast();
            try {
                copy.append(bytes);
            } catch (IOException e) {
                chunk.release();
                copy.close();
                log.error("Could not keep a copy of a request body (the temporary file failed); answered 500", e);
                Response.writeError(request, response, callback, HttpStatus.INTERNAL_SERVER_ERROR_500);
                return;
            }
            chunk.release();
            if (last) {
                bodyComplete();
                return;
            }
        }
    }

    private void bodyComplete() {
        if (atEndpoint) {
            try (InputStream body = copy.openStream()) {
                classification = exchanges.classifier.classify(method, decodedPath, rawQuery, headerList(), body,
                        copy.size(), remoteAddress());
            } catch (IOException | RuntimeException e) {
                log.warn("Could not read {} {} to mirror it; sent to the primary only", method, rawPath, e);
                atEndpoint = false;
            }
        }
        if (classification.binding() == Binding.METADATA) {
            ForwardedHeaders.askForIdentity(forwarded);
        }
        if (classification.writes()) {
            if (!exchanges.turns.take(classification.key(), this::sendToPrimary)) {
                outOfTurn = true; // not delayed further, and not mirrored: its key listed now
                exchanges.reports.dropped(time, classification, "too many writes of this key were waiting for their"
                        + " turn; sent to the primary out of turn, not to the shadow");
                sendToPrimary();
            }
        } else {
            sendToPrimary();
        }
    }

    private void sendToPrimary() {
        org.eclipse.jetty.client.Request toPrimary = null;
        try {
            toPrimary = exchanges.primary.newRequest(method, rawPath, rawQuery, forwarded, exchanges.primaryIdleMillis);
            if (framed) {
                toPrimary.body(copy.content());
            }
            send(toPrimary);
        } catch (IOException | RuntimeException e) {
            // Not sent (a body that cannot be read back, a request the client refuses to build): the client gets 502,
            // and the key's turn is given back by finish, as after any failure.
            log.warn("Could not send {} {} to the primary", method, rawPath, e);
            primaryComplete(new Result(toPrimary, e, null));
        }
    }

    /**
     * A body larger than the proxy copies: streamed to the primary as it arrives (after what the copy holds so far),
     * neither read nor mirrored.
     *
     * @param pending the chunk that did not fit, or {@code null}
     */
    private void stream(Content.Chunk pending) {
        streamed = true;
        atEndpoint = false;
        StreamedBody body = new StreamedBody(framed ? declaredLength : 0);
        org.eclipse.jetty.client.Request toPrimary = exchanges.primary.newRequest(method, rawPath, rawQuery, forwarded,
                exchanges.primaryIdleMillis).body(body);
        send(toPrimary);
        new BodyStream(body, copy, pending).iterate();
    }

    private void send(org.eclipse.jetty.client.Request toPrimary) {
        toPrimary.onResponseHeaders(this::primaryHeaders)
                .onResponseContentAsync(this::primaryContent)
                .send(this::primaryComplete);
    }

    private void primaryHeaders(org.eclipse.jetty.client.Response primary) {
        answer = new AnswerCopy(exchanges.maxAnswerBytes);
        answer.head(primary.getStatus(), primary.getHeaders());
        writer = new ClientWriter(response, exchanges.maxAnswerBytes, exchanges.answers);
        holding = atEndpoint && classification.binding() == Binding.METADATA;
        PrimaryReason.setStatus(response, primary.getStatus(), primary.getReason());
        HttpFields.Mutable headers = response.getHeaders();
        for (HttpField field : primary.getHeaders()) {
            if (!ONE_HOP.contains(field.getLowerCaseName())) {
                headers.add(field);
            }
        }
        headersCopied = true;
    }

    /** One chunk of the primary's body: kept for the comparison, then written to the client (or held, see holding). */
    private void primaryContent(org.eclipse.jetty.client.Response primary, Content.Chunk chunk, Runnable next) {
        long before = answer.length();
        answer.append(chunk.getByteBuffer());
        if (holding) {
            int size = (int) (answer.length() - before);
            if (answer.length() <= exchanges.maxAnswerBytes && exchanges.answers.tryReserve(size)) {
                heldReserved += size;
                next.run(); // held in the answer's copy, written whole at its end
                return;
            }
            // Too long to hold, or the proxy's answers hold all the memory they may: what was held goes first, as it
            // came, the rest streams, and the page names the primary's address, not rewritten.
            holding = false;
            releaseHeld();
            log.warn("A metadata answer to {} {} is sent as the primary wrote it, not naming the proxy's address: {}",
                    method, rawPath, answer.length() > exchanges.maxAnswerBytes ? "longer than "
                            + exchanges.maxAnswerBytes + " bytes" : "the memory for answers held for clients is spent");
            writer.write(ByteBuffer.wrap(answer.held(), 0, (int) before));
        }
        writer.write(chunk, next);
    }

    private void primaryComplete(Result result) {
        if (ShadowSender.answered(result) && answer != null) {
            Answer primaryAnswer = answer.answer();
            ByteBuffer rest = BufferUtil.EMPTY_BUFFER;
            if (holding) {
                primaryAnswer = clientsAddress(primaryAnswer);
                rest = ByteBuffer.wrap(primaryAnswer.body());
                releaseHeld(); // the writer reserves what it writes
            }
            release(null, primaryAnswer); // the primary has answered: the copy queued, the key's turn given back
            writer.end(rest, callback);
            return;
        }
        releaseHeld();
        Throwable failure = result.getFailure();
        String why = ShadowSender.describe(failure);
        int status = failure instanceof TimeoutException ? HttpStatus.GATEWAY_TIMEOUT_504 : HttpStatus.BAD_GATEWAY_502;
        exchanges.failures.primaryFailed(method + " " + rawPath, why, status);
        release(why, null);
        if (headersCopied) {
            // The answer was begun: the client's connection is cut once what came is written, as the primary's was.
            writer.then(() -> callback.failed(failure));
            return;
        }
        byte[] text = HttpStatus.getMessage(status).getBytes(US_ASCII);
        response.setStatus(status);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "text/plain; charset=utf-8");
        response.getHeaders().put(HttpHeader.CONTENT_LENGTH, text.length);
        response.write(true, ByteBuffer.wrap(text), callback);
    }

    /** Gives back what the held metadata answer reserved of the proxy's memory for answers. */
    private void releaseHeld() {
        exchanges.answers.release(heldReserved);
        heldReserved = 0;
    }

    /**
     * The held metadata answer naming the address the client called where the primary named its own, its
     * {@code Content-Length} set to match; the answer as it came if it names neither or was not held whole.
     */
    private Answer clientsAddress(Answer held) {
        if (!held.complete()) {
            return held;
        }
        byte[] body = exchanges.primaryAddress.rewrite(held.body(), sentHost, clientScheme, clientHost);
        if (body == held.body()) {
            return held;
        }
        if (response.getHeaders().contains(HttpHeader.CONTENT_LENGTH)) {
            response.getHeaders().put(HttpHeader.CONTENT_LENGTH, body.length);
        }
        return new Answer(held.status(), held.headers(), body, body.length, AnswerCopy.sha256Of(body), null);
    }

    /**
     * The primary has answered, or cannot: queues the copy (or says why there is none) and gives the key's turn back,
     * whether or not the client has its answer yet.
     *
     * @param primaryFailure why the primary gave no answer, or {@code null} if it answered
     * @param primaryAnswer its answer, when it answered
     */
    private void release(String primaryFailure, Answer primaryAnswer) {
        try {
            if (streamed) {
                exchanges.reports.notMirrored(classification);
            } else if (!atEndpoint || outOfTurn) {
                copy.close();
            } else if (primaryFailure != null) {
                copy.close();
                exchanges.reports.primaryFailed(classification, primaryFailure);
            } else {
                BodyCopy body = copy;
                if (!framed) {
                    copy.close();
                    body = null;
                }
                exchanges.queue.offer(new Mirror(time, classification, method, rawPath, pathSuffix(), rawQuery,
                        forwarded, body, primaryAnswer, holding ? clientScheme + "://" + clientHost : null));
            }
        } finally {
            if (classification.writes() && !outOfTurn) {
                exchanges.turns.giveBack(classification.key());
            }
        }
    }

    /** The path below the endpoint, raw where the raw path begins with the endpoint path, else decoded. */
    private String pathSuffix() {
        String endpoint = exchanges.primary.endpointPath();
        if (rawPath.regionMatches(true, 0, endpoint, 0, endpoint.length())) {
            return rawPath.substring(endpoint.length());
        }
        return decodedPath.substring(Math.min(endpoint.length(), decodedPath.length()));
    }

    private List<Map.Entry<String, String>> headerList() {
        List<Map.Entry<String, String>> headers = new ArrayList<>(request.getHeaders().size());
        for (HttpField field : request.getHeaders()) {
            headers.add(Map.entry(field.getName(), field.getValue() == null ? "" : field.getValue()));
        }
        return headers;
    }

    private String remoteAddress() {
        return Request.getRemoteAddr(request);
    }

    /** The body towards the primary when it streams through: the client's framing kept (its length, or chunked). */
    private static final class StreamedBody extends AsyncRequestContent {
        private final long length;

        /** @param length the declared length, or -1 for chunked */
        StreamedBody(long length) {
            super((String) null);
            this.length = length;
        }

        @Override
        public long getLength() {
            return length;
        }

        @Override
        public String getContentType() {
            return null; // the client's Content-Type is among the forwarded headers, or there is none
        }
    }

    /** Writes to the primary what the copy holds so far, then every chunk as it arrives, each once the last was taken. */
    private final class BodyStream extends IteratingCallback {
        private final StreamedBody body;
        private BodyCopy prefix;
        private InputStream prefixStream;
        private Content.Chunk pending;
        private boolean ended;

        BodyStream(StreamedBody body, BodyCopy prefix, Content.Chunk pending) {
            this.body = body;
            this.prefix = prefix;
            this.pending = pending;
        }

        @Override
        protected Action process() throws Exception {
            if (ended) {
                return Action.SUCCEEDED;
            }
            if (prefix != null) {
                if (prefixStream == null) {
                    prefixStream = prefix.openStream();
                }
                byte[] bytes = prefixStream.readNBytes(64 * 1024);
                if (bytes.length > 0) {
                    body.write(false, ByteBuffer.wrap(bytes), this);
                    return Action.SCHEDULED;
                }
                prefixStream.close();
                prefix.close();
                prefix = null;
            }
            Content.Chunk chunk = pending;
            pending = null;
            if (chunk == null) {
                chunk = request.read();
                if (chunk == null) {
                    request.demand(this::iterate);
                    return Action.IDLE;
                }
            }
            if (Content.Chunk.isFailure(chunk)) {
                body.fail(chunk.getFailure());
                return Action.SUCCEEDED;
            }
            ended = chunk.isLast();
            Content.Chunk written = chunk;
            body.write(ended, chunk.getByteBuffer(), Callback.from(() -> {
                written.release();
                succeeded();
            }, failure -> {
                written.release();
                failed(failure);
            }));
            return Action.SCHEDULED;
        }

        @Override
        protected void onCompleteFailure(Throwable cause) {
            if (pending != null) {
                pending.release();
            }
            if (prefix != null) {
                prefix.close();
            }
            body.fail(cause);
        }
    }
}
