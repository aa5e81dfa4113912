/**
 * The ASMX Store service on the wire, independent of any server: the only exported package of the codec.
 *
 * <p>The streaming round trip of one request:
 * <ol>
 *   <li><b>Bytes in.</b> A server adapter collects the body as it arrives, without a thread waiting for the client,
 *       into a {@link org.storeservice.codec.RequestBodyBuffer} (memory within the codec's
 *       {@link org.storeservice.codec.BodyMemoryBudget}, then a temporary file). Once the body is complete it builds a
 *       {@link org.storeservice.codec.CodecRequest} (method, path, query, headers, the buffered body as an
 *       {@link java.io.InputStream}) and calls {@link org.storeservice.codec.StoreCodec#handle}.
 *       The body is counted as it is read: no more than {@link org.storeservice.codec.CodecLimits#maxRequestBytes()}
 *       + 1 bytes are ever taken from the server.</li>
 *   <li><b>Dispatch.</b> {@code StoreCodec} picks the protocol as ASMX does: a POST to the endpoint is SOAP 1.1 or
 *       1.2, a GET or POST below it is the HTTP GET or POST binding, a GET of the endpoint is a metadata page (WSDL,
 *       disco, help), anything else an ASP.NET error page.</li>
 *   <li><b>Binding decoder.</b> The SOAP reader is a state machine over the hardened parser's events (prolog,
 *       envelope, body, parameters, content, rest of the document); the HTTP bindings bind URL-encoded
 *       parameters. Every limit is in {@link org.storeservice.codec.CodecLimits}.</li>
 *   <li><b>Store call with a streamed content.</b> WriteBytes hands the store an {@code InputStream} that decodes
 *       the base64 {@code <content>} as the store reads it (a large content's plain run straight from the request
 *       bytes); it ends only after the rest of the document was read and found well-formed, so a broken tail fails
 *       the store's read and nothing is stored. A content sent before its key is spooled first.</li>
 *   <li><b>Encoder.</b> The store's {@code Status}, or the fault or error, becomes the exact response ASMX sends.</li>
 *   <li><b>Bytes out.</b> The adapter writes the {@link org.storeservice.codec.CodecResponse} (status, headers in
 *       order, body) as it is.</li>
 * </ol>
 *
 * <p>The internal packages, by the path a byte takes: {@code soap}, {@code http} and {@code metadata} (one per
 * protocol), {@code content} (base64 and spooling), {@code content.fast} (the large-content fast path, behind
 * {@code ContentFastPath}) and {@code wire} (what every protocol shares: operations, Content-Type, escaping, the
 * bounded body, the parser factory, error pages).
 */
package org.storeservice.codec;
