package org.storeservice.bench.codec;

import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.JAXBException;
import jakarta.xml.bind.Marshaller;
import jakarta.xml.bind.Unmarshaller;
import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlRootElement;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * Why the codec reads XML with hand-written StAX over Woodstox and writes precomputed bytes, not JAXB: the same small
 * SOAP 1.1 WriteString request (what ws11.lua sends) read for its key and value by the same hand-written loop over
 * Woodstox and over the JDK's own StAX parser, and unmarshalled by JAXB (reference implementation) on Woodstox; the
 * response marshalled by JAXB. Run with {@code -prof gc} for the allocation per operation (docs/wire-compatibility.md,
 * "Parser and binding choice, measured"):
 *
 * <pre>java -jar store-bench/target/benchmarks.jar ParserChoiceBenchmark -prof gc</pre>
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class ParserChoiceBenchmark {
    private static final String TEMPURI = "http://tempuri.org/";

    /** The request wrapper, as JAXB binds it. */
    @XmlRootElement(name = "WriteString", namespace = TEMPURI)
    @XmlAccessorType(XmlAccessType.FIELD)
    public static class WriteString {
        @XmlElement(namespace = TEMPURI)
        String key;
        @XmlElement(namespace = TEMPURI)
        String value;
    }

    /** The response wrapper, as JAXB binds it. */
    @XmlRootElement(name = "WriteStringResponse", namespace = TEMPURI)
    @XmlAccessorType(XmlAccessType.FIELD)
    public static class WriteStringResponse {
        @XmlElement(name = "WriteStringResult", namespace = TEMPURI)
        String result = "Success";
    }

    @State(Scope.Thread)
    public static class Parsers {
        byte[] request;
        XMLInputFactory woodstox;
        XMLInputFactory jdk;
        Unmarshaller unmarshaller;
        Marshaller marshaller;

        @Setup
        public void setUp() throws JAXBException, ReflectiveOperationException {
            request = Requests.writeString("soap11").body;
            // by name: compiling against Woodstox's class warns about an annotation it does not ship
            woodstox = (XMLInputFactory) Class.forName("com.ctc.wstx.stax.WstxInputFactory").getDeclaredConstructor()
                    .newInstance();
            jdk = XMLInputFactory.newDefaultFactory();
            for (XMLInputFactory factory : new XMLInputFactory[] {woodstox, jdk}) {
                factory.setProperty(XMLInputFactory.SUPPORT_DTD, false);
                factory.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
            }
            unmarshaller = JAXBContext.newInstance(WriteString.class).createUnmarshaller();
            marshaller = JAXBContext.newInstance(WriteStringResponse.class).createMarshaller();
            marshaller.setProperty(Marshaller.JAXB_FRAGMENT, true);
        }
    }

    @Benchmark
    public void woodstoxHandWritten(Parsers parsers, Blackhole sink) throws XMLStreamException {
        readKeyAndValue(parsers.woodstox, parsers.request, sink);
    }

    @Benchmark
    public void jdkStaxHandWritten(Parsers parsers, Blackhole sink) throws XMLStreamException {
        readKeyAndValue(parsers.jdk, parsers.request, sink);
    }

    @Benchmark
    public Object jaxbUnmarshalOnWoodstox(Parsers parsers) throws XMLStreamException, JAXBException {
        XMLStreamReader reader = parsers.woodstox.createXMLStreamReader(new ByteArrayInputStream(parsers.request));
        while (!(reader.getEventType() == XMLStreamConstants.START_ELEMENT && "WriteString".equals(reader.getLocalName()))) {
            reader.next();
        }
        return parsers.unmarshaller.unmarshal(reader, WriteString.class).getValue();
    }

    @Benchmark
    public byte[] jaxbMarshalResponse(Parsers parsers) throws JAXBException {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        parsers.marshaller.marshal(new WriteStringResponse(), out);
        return out.toByteArray();
    }

    /** The codec's way, reduced to its core: walk the events, keep the text of key and value. */
    private static void readKeyAndValue(XMLInputFactory factory, byte[] request, Blackhole sink) throws XMLStreamException {
        XMLStreamReader reader = factory.createXMLStreamReader(new ByteArrayInputStream(request));
        String key = null;
        String value = null;
        while (reader.hasNext()) {
            if (reader.next() == XMLStreamConstants.START_ELEMENT && TEMPURI.equals(reader.getNamespaceURI())) {
                String name = reader.getLocalName();
                if (name.equals("key")) {
                    key = reader.getElementText();
                } else if (name.equals("value")) {
                    value = reader.getElementText();
                }
            }
        }
        reader.close();
        sink.consume(key);
        sink.consume(value);
        if (!"k1-1f6cd137".equals(key) || value == null) {
            throw new IllegalStateException("read " + key + " = " + value + " from " + new String(request, StandardCharsets.UTF_8));
        }
    }
}
