package org.storeservice.bench;

import java.time.Duration;
import org.storeservice.api.StoreLimits;
import org.storeservice.codec.CodecLimits;
import org.storeservice.jetty.StoreServer;

/**
 * The runnable server's configuration plus the one setting its command line does not have yet, the store's
 * largest value ({@link StoreLimits#maxValueBytes()}, default 4 MiB): for the 1 GiB WriteBytes run.
 *
 * <pre>
 * java -Xmx64m -cp store-bench/target/store-bench-VERSION.jar:$(cat store-bench/target/classpath.txt) \
 *   org.storeservice.bench.BenchServer --port 18100 --storage discard: \
 *   --max-request-bytes 2000000000 --max-value-bytes 1073741824
 * </pre>
 *
 * Options: {@code --port} (default 18100), {@code --host} (127.0.0.1), {@code --storage} (discard:),
 * {@code --max-request-bytes}, {@code --max-value-bytes}, {@code --idle-timeout SECONDS} (30). Runs until killed.
 */
public final class BenchServer {
    private BenchServer() {
    }

    public static void main(String[] args) throws Exception {
        int port = 18100;
        String host = "127.0.0.1";
        String storage = "discard:";
        long maxRequestBytes = CodecLimits.DEFAULT_MAX_REQUEST_BYTES;
        long maxValueBytes = StoreLimits.DEFAULT_MAX_VALUE_BYTES;
        long idleSeconds = 30;
        for (int i = 0; i + 1 < args.length; i += 2) {
            String value = args[i + 1];
            switch (args[i]) {
                case "--port": port = Integer.parseInt(value); break;
                case "--host": host = value; break;
                case "--storage": storage = value; break;
                case "--max-request-bytes": maxRequestBytes = Long.parseLong(value); break;
                case "--max-value-bytes": maxValueBytes = Long.parseLong(value); break;
                case "--idle-timeout": idleSeconds = Long.parseLong(value); break;
                default: throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        StoreServer server = StoreServer.builder()
                .port(port)
                .host(host)
                .storageUri(storage)
                .storeLimits(StoreLimits.builder().maxValueBytes(maxValueBytes).build())
                .codecLimits(CodecLimits.builder().maxRequestBytes(maxRequestBytes).build())
                .idleTimeout(Duration.ofSeconds(idleSeconds))
                .build()
                .start();
        Runtime.getRuntime().addShutdownHook(new Thread(server::stop, "bench-server-shutdown"));
        System.out.println(server.endpointUri());
    }
}
