package org.storeservice.codec;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/** One codec shared by many threads, every binding at once: each request gets its own, correct answer. */
class ConcurrencyTest {

    @Test
    void oneCodecServesConcurrentRequests() throws Exception {
        Fixture fixture = new Fixture();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                int n = i;
                results.add(pool.submit(() -> fixture.handle(request(n)).status()));
            }
            for (Future<Integer> result : results) {
                assertEquals(200, result.get());
            }
        } finally {
            pool.shutdown();
        }
        for (int i = 0; i < 400; i++) {
            assertArrayEquals(expected(i), fixture.bytes("k" + i).orElseThrow(), "k" + i);
        }
    }

    private static CodecRequest.Builder request(int n) {
        String key = "k" + n;
        switch (n % 4) {
            case 0:
                return Fixture.soap11Post("WriteString", Fixture.soap11(Fixture.writeString(key, "v" + n)));
            case 1:
                return Fixture.soap12Post(Fixture.soap12(Fixture.writeBytes(key, "AQI=")));
            case 2:
                return Fixture.get(Fixture.PATH + "/WriteString", "key=" + key + "&value=v" + n);
            default:
                return Fixture.post(Fixture.PATH + "/WriteBytes", "key=" + key + "&content=1&content=2")
                        .header("Content-Type", "application/x-www-form-urlencoded");
        }
    }

    private static byte[] expected(int n) {
        return n % 2 == 0 ? ("v" + n).getBytes(java.nio.charset.StandardCharsets.UTF_8) : new byte[] {1, 2};
    }
}
