package org.storeservice.codec.soap;

import java.io.InputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.content.fast.ContentFastPath;
import org.storeservice.codec.content.fast.FastPathPolicy;
import org.storeservice.codec.wire.ContentType;
import org.storeservice.codec.wire.Operation;
import org.storeservice.codec.wire.UrlDecoding;
import org.storeservice.codec.wire.RequestBody;
import org.storeservice.codec.wire.XmlReaders;

/**
 * Decodes a SOAP 1.1 or 1.2 request: chooses the version and the operation from the headers as ASMX does
 * (wire notes §1–2), then starts a {@link SoapCall} that reads the envelope. One decoder serves both
 * versions because a request's version is only known once its envelope is read (a 1.2 envelope may come
 * as {@code text/xml}). Thread-safe; built once per codec.
 */
final class SoapDecoder {
    private final XmlReaders xmlReaders;
    private final String namespace;
    private final CodecLimits limits;
    private final FastPathPolicy fastPath;
    /** The SOAP versions whose protocol is on. */
    private final Set<SoapVersion> enabled;
    private final Map<String, Operation> operationsByAction = new HashMap<>();

    SoapDecoder(XmlReaders xmlReaders, String namespace, CodecLimits limits) {
        this(xmlReaders, namespace, limits, FastPathPolicy.standard(), EnumSet.allOf(SoapVersion.class));
    }

    SoapDecoder(XmlReaders xmlReaders, String namespace, CodecLimits limits, FastPathPolicy fastPath,
            Set<SoapVersion> enabled) {
        this.enabled = EnumSet.copyOf(enabled);
        this.xmlReaders = xmlReaders;
        this.namespace = namespace;
        this.limits = limits;
        this.fastPath = fastPath;
        for (Operation operation : Operation.values()) {
            operationsByAction.put(operation.soapAction(namespace), operation);
        }
    }

    /**
     * The version whose helper ASMX would pick from the headers alone ({@code GuessVersion}): 1.2 when
     * there is no SOAPAction header or the media type is {@code application/soap+xml}; else 1.1. Errors
     * found before the envelope is read are answered in this version.
     */
    static SoapVersion guessVersion(String contentType, String soapAction) {
        boolean soap12MediaType = ContentType.base(contentType).equals(SoapVersion.SOAP_12.mediaType());
        return soapAction == null || soap12MediaType ? SoapVersion.SOAP_12 : SoapVersion.SOAP_11;
    }

    /**
     * Reads {@code body} up to the point where the store can be called: with every parameter known, or
     * positioned at a streaming {@code content}. The caller closes the call.
     *
     * @param contentType the Content-Type header, or {@code null}
     * @param soapAction the SOAPAction header, or {@code null} if absent
     * @throws SoapFault if the request is to be answered with a fault; nothing is to be stored
     */
    SoapCall decode(String contentType, String soapAction, InputStream body) throws SoapFault {
        return decode(contentType, soapAction, body, -1);
    }

    /**
     * As {@link #decode(String, String, InputStream)}, for a body of {@code declaredLength} bytes (-1 if
     * unknown): large bodies may take the byte-level path for WriteBytes content ({@link ContentFastPath}).
     */
    SoapCall decode(String contentType, String soapAction, InputStream body, long declaredLength) throws SoapFault {
        SoapVersion guessed = guessVersion(contentType, soapAction);
        String base = ContentType.base(contentType);
        if (!base.equals(SoapVersion.SOAP_11.mediaType()) && !base.equals(SoapVersion.SOAP_12.mediaType())) {
            throw SoapFault.unsupportedMediaType(guessed, contentType);
        }
        String action = action(guessed, contentType, soapAction);
        if (guessed == SoapVersion.SOAP_11 && !operationsByAction.containsKey(action)) {
            throw new SoapFault(guessed, FaultCode.CLIENT, 500,
                    "Server did not recognize the value of HTTP Header SOAPAction: " + action + ".");
        }
        Operation routed = action == null ? null : operationsByAction.get(action);
        Charset charset = ContentType.charset(contentType);
        ContentFastPath contentFastPath = ContentFastPath.forBody(body, declaredLength, xmlReaders, charset, fastPath);
        Supplier<byte[]> head = body instanceof RequestBody counted ? counted::head : () -> new byte[0];
        SoapCall call = new SoapCall(namespace, limits, enabled, guessed, contentType, action, routed, contentFastPath,
                head);
        try {
            call.start(xmlReaders.open(contentFastPath == null ? body : contentFastPath.input(), charset));
            return call;
        } catch (SoapFault fault) {
            call.close();
            throw fault;
        } catch (javax.xml.stream.XMLStreamException e) {
            call.close();
            throw call.xmlFault(e);
        } catch (RuntimeException | Error e) {
            call.close();
            throw e;
        }
    }

    /**
     * The operation the headers route a request to before its envelope is read, as {@link #decode} routes it; {@code null}
     * when the envelope's element decides (no action, or one of no operation's), or for a SOAP 1.1 action no operation has.
     */
    Operation routedOperation(String contentType, String soapAction) {
        String action = action(guessVersion(contentType, soapAction), contentType, soapAction);
        return action == null ? null : operationsByAction.get(action);
    }

    /**
     * The action ASMX routes by (wire notes §1–2): for SOAP 1.1 the SOAPAction header, for SOAP 1.2 the Content-Type's
     * {@code action} parameter ({@code null} if none or empty), URL-decoded.
     */
    private static String action(SoapVersion guessed, String contentType, String soapAction) {
        if (guessed == SoapVersion.SOAP_11) {
            return UrlDecoding.decode(stripQuotes(soapAction), StandardCharsets.UTF_8);
        }
        String parameter = ContentType.parameter(contentType, "action");
        // Soap12ServerProtocolHelper.RouteRequest treats an empty action as none (wire notes §2)
        return parameter == null || parameter.isEmpty() ? null : UrlDecoding.decode(parameter, StandardCharsets.UTF_8);
    }

    /** ASMX strips quotes only when the value both starts and ends with one. */
    private static String stripQuotes(String value) {
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
            return value.substring(1, value.length() - 1);
        }
        return value;
    }
}
