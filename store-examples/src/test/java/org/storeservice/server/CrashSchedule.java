package org.storeservice.server;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * One random crash schedule for the SQLite writer, all of it drawn from one seed: how many client threads write,
 * which few keys they share, the mix of small WriteString, small WriteBytes and large WriteBytes (over 64 KiB, which
 * SQLite's writer commits one per transaction after the small writes taken beside them), each writer's sequence of
 * writes, and the point of the kill: once a number of writes were acknowledged, or a delay after the first was sent.
 * The seed fixes all of that; which thread the machine runs when does not repeat.
 *
 * @param killAfterAcknowledged the kill comes once this many writes were acknowledged ({@link Integer#MAX_VALUE}: never
 *     for that reason)...
 * @param killAfter ...or this long after the load started, whichever is first
 */
record CrashSchedule(long seed, int writers, List<String> keys, double largeShare, double textShare,
        int killAfterAcknowledged, Duration killAfter) {

    /** The keys every schedule draws from: later schedules overwrite what earlier ones left. */
    static final List<String> KEY_POOL = List.of("crash/a", "crash/b", "crash/c", "crash/d", "crash/e", "crash/f");
    /** A schedule killed on its count of acknowledged writes is killed after this long at the latest. */
    static final Duration LOAD_LIMIT = Duration.ofSeconds(15);
    private static final int MOST_ACKNOWLEDGED = 800;
    private static final int MOST_DELAY_MILLIS = 2_500;
    private static final int MOST_TEXT_CODE_POINTS = 4_000;
    private static final int MOST_SMALL_BYTES = 16 * 1024;
    private static final int MOST_LARGE_BYTES = 384 * 1024;

    /** The seed of the {@code index}th schedule of a run: the run's own seed for the first, so one replays alone. */
    static long seedOf(long runSeed, int index) {
        return runSeed + index * 0x9E3779B97F4A7C15L;
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
        if (random.nextBoolean()) {
            // log-uniform: as many schedules killed after a handful of writes as after hundreds
            int acknowledged = (int) Math.round(Math.exp(random.nextDouble() * Math.log(MOST_ACKNOWLEDGED)));
            return new CrashSchedule(seed, writers, List.copyOf(keys), largeShare, textShare, acknowledged, LOAD_LIMIT);
        }
        return new CrashSchedule(seed, writers, List.copyOf(keys), largeShare, textShare, Integer.MAX_VALUE,
                Duration.ofMillis(random.nextInt(MOST_DELAY_MILLIS + 1)));
    }

    /** The random that draws writer {@code writer}'s writes, one after another. */
    SplittableRandom writerRandom(int writer) {
        return new SplittableRandom(seed ^ (0xBF58476D1CE4E5B9L * (writer + 1)));
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
                + (killAfterAcknowledged == Integer.MAX_VALUE ? "kill " + killAfter.toMillis() + " ms after the start"
                        : "kill after " + killAfterAcknowledged + " acknowledged");
    }
}
