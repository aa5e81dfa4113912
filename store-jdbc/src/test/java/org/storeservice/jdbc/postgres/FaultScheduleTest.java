package org.storeservice.jdbc.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.storeservice.jdbc.TestPostgres;

/**
 * Exactly once, shown on random fault schedules ({@link FaultSchedule}) with a history checker ({@link HistoryChecker}):
 * a fixed number of schedules, each drawn from a seed, every third one with an outage that outlasts the failover
 * time-out. One line sums up the run; each violation names its schedule's seed and the command that replays it.
 *
 * <p>{@code -Dstore.faultSchedules.seed=S} sets the first seed (by default the time), {@code
 * -Dstore.faultSchedules.count=N} how many schedules run (by default {@value #DEFAULT_COUNT}, about two minutes on two
 * cores); schedule i uses seed S + i, and is long when (S + i) is divisible by 3.
 */
@Timeout(value = 15, unit = TimeUnit.MINUTES)
class FaultScheduleTest {
    static final int DEFAULT_COUNT = 12;

    @RegisterExtension
    static final TestPostgres postgres = new TestPostgres();

    @Test
    void everyAcknowledgedWriteTakesEffectExactlyOnceOnRandomFaultSchedules() throws Exception {
        long first = Long.getLong("store.faultSchedules.seed", System.currentTimeMillis());
        int count = Integer.getInteger("store.faultSchedules.count", DEFAULT_COUNT);
        List<String> violations = new ArrayList<>();
        int writes = 0;
        int inDoubtTookEffect = 0;
        int inDoubtDidNot = 0;
        int errors = 0;
        for (int i = 0; i < count; i++) {
            FaultSchedule schedule = FaultSchedule.of(first + i, Math.floorMod(first + i, 3) == 0);
            HistoryChecker.Result result = schedule.run(postgres, PostgresWriter.Lookup.AS_COMMITTED);
            writes += result.writes();
            inDoubtTookEffect += result.inDoubtTookEffect();
            inDoubtDidNot += result.inDoubtDidNot();
            errors += result.errors();
            for (String violation : result.violations()) {
                violations.add(schedule + ": " + violation + "\n    replay: " + replay(first + i));
            }
        }
        System.out.printf("fault schedules: %d run, %d writes checked, %d violations, seed %d (%d Error answers, of"
                        + " them in doubt at their time-out: %d stored, %d not)%n", count, writes, violations.size(), first,
                errors, inDoubtTookEffect, inDoubtDidNot);
        violations.forEach(System.out::println);
        assertEquals(List.of(), violations);
    }

    /** The one-line command that runs the schedule of {@code seed} alone. */
    static String replay(long seed) {
        return "STORE_TEST_POSTGRES_URL=... mvn -B -ntp verify -pl store-jdbc -am -Dsurefire.failIfNoSpecifiedTests=false"
                + " -Dtest=FaultScheduleTest -Dstore.faultSchedules.seed=" + seed + " -Dstore.faultSchedules.count=1";
    }
}
