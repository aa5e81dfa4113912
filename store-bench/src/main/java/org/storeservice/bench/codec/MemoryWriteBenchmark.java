package org.storeservice.bench.codec;

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
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.StoreLimits;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.CodecResponse;
import org.storeservice.codec.StoreCodec;

/**
 * WriteBytes over SOAP 1.1 into the memory store, as the load run's server does (the same key each time, so
 * the store holds one value): with {@code -prof gc}, {@code gc.alloc.rate.norm} shows how many copies of the
 * value a write allocates on top of the codec's own few KiB (see {@link CodecBenchmark}, which discards).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"-Xms1g", "-Xmx1g"})
public class MemoryWriteBenchmark {

    @State(Scope.Benchmark)
    public static class Codec {
        @Param({"65536", "4194304"})
        public int contentBytes;
        StoreCodec codec;
        Requests.Template template;

        @Setup(Level.Trial)
        public void setUp() {
            codec = StoreCodec.builder(DefaultStore.builder(new MemoryStorage())
                            .limits(StoreLimits.builder().maxValueBytes(8 << 20).build())
                            .overwritePolicy(OverwritePolicy.REPLACE).build())
                    .limits(CodecLimits.builder().maxRequestBytes(8L << 20).build())
                    .build();
            template = Requests.writeBytes(contentBytes);
            CodecBenchmark.check(codec.handle(template.request()), "WriteBytes " + contentBytes);
        }
    }

    @Benchmark
    public CodecResponse writeBytes(Codec codec) {
        return codec.codec.handle(codec.template.request());
    }
}
