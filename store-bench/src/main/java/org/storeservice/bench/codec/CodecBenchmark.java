package org.storeservice.bench.codec;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.storeservice.api.DefaultStore;
import org.storeservice.bench.DiscardStorage;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.CodecResponse;
import org.storeservice.codec.StoreCodec;

/**
 * The codec alone: decode + dispatch + store call + encode, for each binding, against {@link DiscardStorage}
 * behind a {@link DefaultStore} (the store's checks run, storage costs nothing; byte content is still
 * decoded and read to its end). Run with {@code -prof gc} for the allocation per operation
 * ({@code gc.alloc.rate.norm}, bytes per request).
 *
 * <p>The request size limit is raised to 8 MiB so the 4 MiB content (5.6 MB of base64) fits, as the load
 * run's server is started with it; every other limit is the default.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class CodecBenchmark {

    /** The codec as a server builds it, over a store that discards. */
    @State(Scope.Benchmark)
    public static class Codec {
        StoreCodec codec;

        @Setup(Level.Trial)
        public void setUp() {
            codec = StoreCodec.builder(DefaultStore.of(new DiscardStorage()))
                    .limits(CodecLimits.builder().maxRequestBytes(8L << 20).build())
                    .build();
        }
    }

    /** WriteString with a 40-character value, over each binding. */
    @State(Scope.Benchmark)
    public static class WriteString {
        @Param({"soap11", "soap12", "httpGet", "httpPost"})
        public String binding;
        Requests.Template template;

        @Setup(Level.Trial)
        public void setUp(Codec codec) {
            template = Requests.writeString(binding);
            check(codec.codec.handle(template.request()), binding);
        }
    }

    /** WriteBytes over SOAP 1.1 with 64 KiB and 4 MiB of content, in plain base64 or MIME's (line breaks). */
    @State(Scope.Benchmark)
    public static class WriteBytes {
        @Param({"65536", "4194304"})
        public int contentBytes;
        @Param({"plain", "mime"})
        public String base64;
        Requests.Template template;

        @Setup(Level.Trial)
        public void setUp(Codec codec) {
            template = Requests.writeBytes(contentBytes,
                    "mime".equals(base64) ? java.util.Base64.getMimeEncoder() : java.util.Base64.getEncoder());
            check(codec.codec.handle(template.request()), "WriteBytes " + contentBytes);
        }
    }

    @Benchmark
    public CodecResponse writeString(Codec codec, WriteString request) {
        return codec.codec.handle(request.template.request());
    }

    @Benchmark
    public CodecResponse writeBytes(Codec codec, WriteBytes request) {
        return codec.codec.handle(request.template.request());
    }

    /** A benchmark of a wrong answer measures nothing: fail the trial unless the answer is Success. */
    static void check(CodecResponse response, String what) {
        String body = new String(response.bodyBytes(), StandardCharsets.UTF_8);
        if (response.status() != 200 || !body.contains(">Success<")) {
            throw new IllegalStateException(what + ": expected a 200 Success, got " + response + ": " + body);
        }
    }
}
