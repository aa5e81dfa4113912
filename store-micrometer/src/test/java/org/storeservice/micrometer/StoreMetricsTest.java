package org.storeservice.micrometer;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.ByteArrayInputStream;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.codec.CodecRequest;
import org.storeservice.codec.StoreCodec;

/** A real codec with the meters as its observer: requests counted, timed and sized under their tags. */
class StoreMetricsTest {
    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MemoryStorage storage = new MemoryStorage();
    private final StoreCodec codec = StoreCodec.builder(DefaultStore.builder(storage).build())
            .observer(new StoreMetrics(registry)).build();

    private double count(String binding, String operation, String outcome) {
        Counter counter = registry.find(StoreMetrics.REQUESTS)
                .tags("binding", binding, "operation", operation, "outcome", outcome).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void countsTimesAndSizesEachRequestUnderItsTags() {
        String envelope = "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>"
                + "<WriteString xmlns=\"http://tempuri.org/\"><key>k</key><value>v</value></WriteString>"
                + "</soap:Body></soap:Envelope>";
        for (int i = 0; i < 3; i++) {
            codec.handle(CodecRequest.builder("POST", "/API/Store.asmx")
                    .header("Content-Type", "text/xml; charset=utf-8")
                    .header("SOAPAction", "\"http://tempuri.org/WriteString\"")
                    .body(new ByteArrayInputStream(envelope.getBytes(UTF_8))).build());
        }
        codec.handle(CodecRequest.builder("GET", "/API/Store.asmx/WriteString").rawQuery("key=&value=v").build());
        codec.handle(CodecRequest.builder("GET", "/API/Store.asmx").rawQuery("wsdl").build());

        assertEquals(3, count("soap11", "WriteString", "Success"));
        assertEquals(1, count("httpget", "WriteString", "Error"));
        assertEquals(1, count("metadata", "wsdl", "Success"));
        assertEquals(0, count("soap12", "WriteString", "Success"));

        Timer timer = registry.find(StoreMetrics.DURATION).tags("binding", "soap11").timer();
        assertEquals(3, timer.count());
        assertTrue(timer.totalTime(TimeUnit.NANOSECONDS) > 0);
        DistributionSummary body = registry.find(StoreMetrics.BODY).tags("binding", "soap11").summary();
        assertEquals(3, body.count());
        assertEquals(3.0 * envelope.getBytes(UTF_8).length, body.totalAmount());
        assertEquals("bytes", body.getId().getBaseUnit());
    }

    @Test
    void registersNothingBeforeTheFirstRequest() {
        assertNull(registry.find(StoreMetrics.REQUESTS).counter());
    }
}
