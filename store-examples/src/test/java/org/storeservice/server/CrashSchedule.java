package org.storeservice.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One random crash schedule for the SQLite writer, all of it drawn from one seed: how many client threads write,
 * which few keys they share, the mix of small WriteString, small WriteBytes and large WriteBytes (over 64 KiB, which
 * SQLite's writer commits one per transaction after the small writes taken beside them), each writer's sequence of
 * writes, and the {@link KillPoint}. The seed fixes all of that; which thread the machine runs when does not repeat.
 */
record CrashSchedule(long seed, int writers, List<String> keys, double largeShare, double textShare, KillPoint kill) {

    /**
     * When the server is killed: at once when the client of the {@code acknowledged}th acknowledged write (of a large
     * one only, if {@code largeOnly}) has its answer, so that the kill follows an acknowledgement as closely as it can;
     * or {@code after} the load started, whichever comes first.
     */
    record KillPoint(int acknowledged, boolean largeOnly, Duration after) {
        @Override
        public String toString() {
            return acknowledged == Integer.MAX_VALUE ? "kill " + after.toMillis() + " ms after the start"
                    : "kill at the " + acknowledged + (largeOnly ? " acknowledged large write" : " acknowledged write");
        }
    }

    /** The keys every schedule draws from: later schedules overwrite what earlier ones left. */
    static final List<String> KEY_POOL = List.of("crash/a", "crash/b", "crash/c", "crash/d", "crash/e", "crash/f");
    /** A schedule killed on its count of acknowledged writes is killed after this long at the latest. */
    static final Duration LOAD_LIMIT = Duration.ofSeconds(15);
    private static final int MOST_ACKNOWLEDGED = 800;
    private static final int MOST_LARGE_ACKNOWLEDGED = 40;
    private static final int MOST_DELAY_MILLIS = 2_500;
    private static final int MOST_TEXT_CODE_POINTS = 4_000;
    private static final int MOST_SMALL_BYTES = 16 * 1024;
    private static final int MOST_LARGE_BYTES = 384 * 1024;

    /**
     * The seed of the {@code index}th schedule of a run: the run's own seed for the first, so that one schedule
     * replays alone with its seed as the run's; the others drawn from it.
     */
    static long seedOf(long runSeed, int index) {
        SplittableRandom seeds = new SplittableRandom(runSeed);
        long seed = runSeed;
        for (int i = 0; i < index; i++) {
            seed = seeds.nextLong();
        }
        return seed;
    }

    /** The schedule of {@code seed}. */
    static CrashSchedule draw(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        int writers = 2 + random.nextInt(7);
        List<String> pool = new ArrayList<>(KEY_POOL);
        List<String> keys = new ArrayList<>();
        for (int count = 1 + random.nextInt(4); keys.size() < count; ) {
            keys.add(pool.remove(random.nextInt(pool.size())));
        }
        double largeShare = random.nextDouble() * 0.4;
        double textShare = random.nextDouble();
        KillPoint kill = switch (random.nextInt(3)) {
            // log-uniform counts: as many schedules killed after a handful of writes as after hundreds
            case 0 -> new KillPoint(logUniform(random, MOST_ACKNOWLEDGED), false, LOAD_LIMIT);
            case 1 -> {
                largeShare = Math.max(largeShare, 0.05); // so that the count is reached soon
                yield new KillPoint(logUniform(random, MOST_LARGE_ACKNOWLEDGED), true, LOAD_LIMIT);
            }
            default -> new KillPoint(Integer.MAX_VALUE, false, Duration.ofMillis(random.nextInt(MOST_DELAY_MILLIS + 1)));
        };
        return new CrashSchedule(seed, writers, List.copyOf(keys), largeShare, textShare, kill);
    }

    /** A whole number from 1 to {@code most}, its logarithm uniform. */
    private static int logUniform(SplittableRandom random, int most) {
        return (int) Math.round(Math.exp(random.nextDouble() * Math.log(most)));
    }

    /** The random that draws writer {@code writer}'s writes, one after another: a stream of its own. */
    SplittableRandom writerRandom(int writer) {
        SplittableRandom writers = new SplittableRandom(seed).split();
        for (int w = 0; w < writer; w++) {
            writers.nextLong();
        }
        return new SplittableRandom(writers.nextLong());
    }

    /** Writer {@code writer}'s write number {@code sequence}, drawn from its {@link #writerRandom}. */
    Planned next(SplittableRandom random, int writer, int sequence) {
        String key = keys.get(random.nextInt(keys.size()));
        String id = Long.toHexString(seed) + "." + writer + "." + sequence;
        boolean boundary = random.nextInt(10) == 0; // the sizes either side of the line between small and large
        if (random.nextDouble() < largeShare) {
            int length = boundary ? ClientWrite.LARGE_BYTES + 1
                    : ClientWrite.LARGE_BYTES + 1 + random.nextInt(MOST_LARGE_BYTES - ClientWrite.LARGE_BYTES);
            return new Planned(id, key, ClientWrite.Kind.BYTES, length);
        }
        if (random.nextDouble() < textShare) {
            return new Planned(id, key, ClientWrite.Kind.TEXT, random.nextInt(MOST_TEXT_CODE_POINTS + 1));
        }
        int length = boundary ? ClientWrite.LARGE_BYTES : 64 + random.nextInt(MOST_SMALL_BYTES);
        return new Planned(id, key, ClientWrite.Kind.BYTES, length);
    }

    /** A write drawn and not yet sent. */
    record Planned(String id, String key, ClientWrite.Kind kind, int length) {
        ClientWrite sentAt(long nanos) {
            return ClientWrite.sent(id, key, kind, length, nanos);
        }
    }

    @Override
    public String toString() {
        return writers + " writers on " + keys.size() + (keys.size() == 1 ? " key" : " keys")
                + String.format(java.util.Locale.ROOT, ", %.0f%% large, %.0f%% of the small ones text, ", largeShare * 100,
                        textShare * 100)
                + kill;
    }
}
