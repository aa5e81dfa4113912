package org.storeservice.bench;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The connect storm of a switch-over: N TCP connects to one server at once, as when a routing change sends every
 * client to a new server. All N are started from one thread without waiting (non-blocking connects, each SYN sent
 * as fast as the kernel takes them), then each one's connect time is taken when it completes. A connect whose SYN
 * the server's kernel dropped (its accept queue full) completes only after the client's SYN retransmit, 1 s later
 * (3 s for a second one): those are counted apart.
 *
 * <pre>
 * java -cp store-bench/target/benchmarks.jar org.storeservice.bench.ConnectStorm 127.0.0.1 18100 5000 [ROUNDS]
 * </pre>
 *
 * Prints one line per round: {@code connects=N ok= failed= p50_ms= p99_ms= max_ms= waited_1s= waited_3s=}
 * ({@code waited_1s}: connects that took 0.9 s or more, {@code waited_3s}: 2.9 s or more). Every connection is held
 * until the round's last one completed (up to 30 s), then reset (SO_LINGER 0, so that no TIME_WAIT is left behind
 * to use up local ports); rounds are 2 s apart. Exit status 1 if any connect failed.
 */
public final class ConnectStorm {
    /** A connect's time while it has none: still pending, or failed. */
    private static final long FAILED = -1;
    private static final long ROUND_LIMIT_NANOS = 30_000_000_000L;
    private static final long ONE_RETRANSMIT_NANOS = 900_000_000L;
    private static final long TWO_RETRANSMITS_NANOS = 2_900_000_000L;

    private ConnectStorm() {
    }

    public static void main(String[] args) throws Exception {
        InetSocketAddress server = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        int connects = Integer.parseInt(args[2]);
        int rounds = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        boolean allConnected = true;
        for (int round = 1; round <= rounds; round++) {
            if (round > 1) {
                Thread.sleep(2000); // the server closes the reset connections of the round before
            }
            allConnected &= storm(server, connects, round);
        }
        System.exit(allConnected ? 0 : 1);
    }

    /** One round: prints its line; returns whether every connect succeeded. */
    private static boolean storm(InetSocketAddress server, int connects, int round) throws IOException {
        long[] started = new long[connects];
        long[] took = new long[connects];
        Arrays.fill(took, FAILED);
        List<SocketChannel> channels = new ArrayList<>(connects);
        try (Selector selector = Selector.open()) {
            for (int i = 0; i < connects; i++) {
                SocketChannel channel = SocketChannel.open();
                channels.add(channel);
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.SO_LINGER, 0);
                started[i] = System.nanoTime();
                try {
                    if (channel.connect(server)) {
                        took[i] = System.nanoTime() - started[i];
                    } else {
                        channel.register(selector, SelectionKey.OP_CONNECT, i);
                    }
                } catch (IOException e) {
                    took[i] = FAILED;
                }
                selector.selectNow(); // so that a connect completed while the others start is timed now
                finish(selector, started, took);
            }
            long deadline = System.nanoTime() + ROUND_LIMIT_NANOS;
            while (!selector.keys().isEmpty() && System.nanoTime() < deadline) {
                selector.select(100);
                finish(selector, started, took);
            }
        } finally {
            for (SocketChannel channel : channels) {
                channel.close();
            }
        }
        // Not connected within the round's limit counts as failed, as a connect that failed.
        int failed = (int) Arrays.stream(took).filter(t -> t < 0).count();
        long[] ok = Arrays.stream(took).filter(t -> t >= 0).sorted().toArray();
        long waited1 = Arrays.stream(ok).filter(t -> t >= ONE_RETRANSMIT_NANOS).count();
        long waited3 = Arrays.stream(ok).filter(t -> t >= TWO_RETRANSMITS_NANOS).count();
        System.out.printf("round=%d connects=%d ok=%d failed=%d p50_ms=%.2f p99_ms=%.2f max_ms=%.2f waited_1s=%d waited_3s=%d%n",
                round, connects, ok.length, failed, millis(percentile(ok, 50)), millis(percentile(ok, 99)),
                millis(ok.length == 0 ? 0 : ok[ok.length - 1]), waited1, waited3);
        return failed == 0;
    }

    /** Times the connects the last select found complete, and stops watching them. */
    private static void finish(Selector selector, long[] started, long[] took) {
        for (SelectionKey key : selector.selectedKeys()) {
            int i = (Integer) key.attachment();
            key.cancel();
            try {
                ((SocketChannel) key.channel()).finishConnect();
                took[i] = System.nanoTime() - started[i];
            } catch (IOException e) {
                took[i] = FAILED;
            }
        }
        selector.selectedKeys().clear();
    }

    /** The nearest-rank percentile of sorted {@code values}. */
    private static long percentile(long[] sorted, int percent) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(percent / 100.0 * sorted.length);
        return sorted[Math.max(0, rank - 1)];
    }

    private static double millis(long nanos) {
        return nanos / 1e6;
    }
}
