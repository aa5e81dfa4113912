package org.storeservice.codec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import org.storeservice.codec.http.HttpEndpoint;
import org.storeservice.codec.metadata.MetadataPages;
import org.storeservice.codec.soap.SoapEndpoint;
import org.storeservice.codec.wire.ErrorPages;
import org.storeservice.codec.wire.Operation;

/**
 * ASMX's protocol selection (wire notes §0, {@code WebServiceHandlerFactory.CoreGetHandler}): the enabled
 * protocols' factories are asked in ASMX's order; the first that takes the request answers it. A factory may
 * instead have no opinion, or object to the verb (405); when none takes the request, the <em>last</em>
 * factory's answer decides the error. So switching a protocol off changes which error a request gets, exactly
 * as removing it from web.config does. Immutable.
 */
final class ProtocolDispatch {
    /** A protocol factory's answer to one request. */
    private enum Answer { TAKE, NONE, WRONG_VERB }

    /** ASMX's factories, in {@code WebServicesSection.ServerProtocolFactories} order. */
    private enum Factory {
        /** Both SOAP versions: one factory. Empty path info; POST only. */
        SOAP {
            @Override
            Answer answer(CodecRequest request, String pathInfo) {
                return !pathInfo.isEmpty() ? Answer.NONE : post(request) ? Answer.TAKE : Answer.WRONG_VERB;
            }
        },
        HTTP_POST {
            @Override
            Answer answer(CodecRequest request, String pathInfo) {
                return pathInfo.length() < 2 ? Answer.NONE : post(request) ? Answer.TAKE : Answer.WRONG_VERB;
            }
        },
        /** As HTTP_POST, for a client on this machine only; anyone else falls through. */
        HTTP_POST_LOCALHOST {
            @Override
            Answer answer(CodecRequest request, String pathInfo) {
                if (pathInfo.length() < 2) {
                    return Answer.NONE;
                }
                if (!post(request)) {
                    return Answer.WRONG_VERB;
                }
                return request.isLocal() ? Answer.TAKE : Answer.NONE;
            }
        },
        HTTP_GET {
            @Override
            Answer answer(CodecRequest request, String pathInfo) {
                return pathInfo.length() < 2 ? Answer.NONE : get(request) ? Answer.TAKE : Answer.WRONG_VERB;
            }
        },
        /**
         * ASMX's Discovery ({@code ?wsdl}, {@code ?disco}) and Documentation (help pages) factories, which
         * Documentation switches on and off together. Between them every GET without path info is taken, so they
         * act as one: empty path info, GET only.
         */
        METADATA {
            @Override
            Answer answer(CodecRequest request, String pathInfo) {
                return !pathInfo.isEmpty() ? Answer.NONE : get(request) ? Answer.TAKE : Answer.WRONG_VERB;
            }
        };

        abstract Answer answer(CodecRequest request, String pathInfo);

        private static boolean post(CodecRequest request) {
            return request.method().equals("POST");
        }

        private static boolean get(CodecRequest request) {
            return request.method().equals("GET");
        }
    }

    private final List<Factory> factories;
    private final SoapEndpoint soap;
    private final HttpEndpoint http;
    private final MetadataPages metadataPages;

    ProtocolDispatch(Protocols protocols, SoapEndpoint soap, HttpEndpoint http, MetadataPages metadataPages) {
        List<Factory> enabled = new ArrayList<>();
        if (protocols.anySoap()) {
            enabled.add(Factory.SOAP);
        }
        if (protocols.contains(Protocol.HTTP_POST)) {
            enabled.add(Factory.HTTP_POST);
        }
        if (protocols.contains(Protocol.HTTP_POST_LOCALHOST)) {
            enabled.add(Factory.HTTP_POST_LOCALHOST);
        }
        if (protocols.contains(Protocol.HTTP_GET)) {
            enabled.add(Factory.HTTP_GET);
        }
        if (protocols.contains(Protocol.DOCUMENTATION)) {
            enabled.add(Factory.METADATA);
        }
        this.factories = List.copyOf(enabled);
        this.soap = soap;
        this.http = http;
        this.metadataPages = metadataPages;
    }

    /**
     * Answers {@code request}, whose path is the endpoint path followed by {@code pathInfo} (maybe empty); a store
     * write that may block runs on {@code blockingWork} (see {@link StoreCodec#handleAsync}).
     */
    CompletionStage<CodecResponse> dispatch(CodecRequest request, String pathInfo, Executor blockingWork) {
        Factory taking = taking(request, pathInfo);
        if (taking != null) {
            return switch (taking) {
                case SOAP -> soap.handle(request, blockingWork);
                case HTTP_POST, HTTP_POST_LOCALHOST -> http.handle(request, pathInfo, true, blockingWork);
                case HTTP_GET -> http.handle(request, pathInfo, false, blockingWork);
                case METADATA -> CompletableFuture.completedFuture(metadataPages.respond(request));
            };
        }
        Answer last = factories.isEmpty() ? Answer.NONE : factories.get(factories.size() - 1).answer(request, pathInfo);
        if (last == Answer.WRONG_VERB) {
            return CompletableFuture.completedFuture(ErrorPages.methodNotAllowed());
        }
        return CompletableFuture.completedFuture(
                pathInfo.isEmpty() ? ErrorPages.unrecognized() : ErrorPages.unrecognizedPathInfo(pathInfo));
    }

    /**
     * Whether {@link #dispatch} will send {@code request} to a WriteBytes that reads its content as a stream, holding no
     * text of it, as far as its headers tell before its body is read: SOAP's, routed by its SOAPAction or SOAP 1.2
     * action. An HTTP POST builds its whole form as text first, WriteBytes' content included; the envelope decides
     * for a SOAP request with no action this codec routes by.
     */
    boolean streamsContent(CodecRequest request, String pathInfo) {
        return taking(request, pathInfo) == Factory.SOAP && soap.routedOperation(request) == Operation.WRITE_BYTES;
    }

    /** The first enabled factory that takes {@code request}, or {@code null}: then the last one's answer decides the error. */
    private Factory taking(CodecRequest request, String pathInfo) {
        for (Factory factory : factories) {
            if (factory.answer(request, pathInfo) == Answer.TAKE) {
                return factory;
            }
        }
        return null;
    }
}
