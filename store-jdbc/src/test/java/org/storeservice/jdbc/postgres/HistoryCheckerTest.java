package org.storeservice.jdbc.postgres;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.storeservice.jdbc.postgres.HistoryChecker.Answer;
import org.storeservice.jdbc.postgres.HistoryChecker.Event;
import org.storeservice.jdbc.postgres.HistoryChecker.Kind;
import org.storeservice.jdbc.postgres.HistoryChecker.Op;

/** Each thing the checker finds, shown on a history that has it; and a right history passes. */
class HistoryCheckerTest {
    private static Op op(String key, Kind kind, String value, long started, long answered, Answer answer) {
        return new Op("A", key, kind, value, started, answered, answer, false);
    }

    private static Event event(long seq, String op, String key, String value) {
        return new Event(seq, op, key, value);
    }

    private static List<String> violations(List<Op> ops, List<Event> history) {
        return HistoryChecker.check(ops, history, true).violations();
    }

    @Test
    void aRightHistoryPasses() {
        List<Op> ops = List.of(op("k", Kind.REPLACE, "a", 0, 10, Answer.TRUE), op("k", Kind.REPLACE, "b", 20, 30, Answer.TRUE),
                op("k", Kind.REJECT, "c", 40, 50, Answer.FALSE), op("k", Kind.DELETE, null, 60, 70, Answer.TRUE),
                op("k", Kind.DELETE, null, 80, 90, Answer.FALSE), op("k", Kind.REJECT, "d", 100, 110, Answer.TRUE));
        List<Event> history = List.of(event(1, "insert", "k", "a"), event(2, "update", "k", "b"),
                event(3, "delete", "k", null), event(4, "insert", "k", "d"));
        assertEquals(List.of(), violations(ops, history));
    }

    @Test
    void aWriteCommittedTwiceIsFound() {
        List<String> found = violations(List.of(op("k", Kind.REPLACE, "a", 0, 10, Answer.TRUE)),
                List.of(event(1, "insert", "k", "a"), event(2, "update", "k", "a")));
        assertTrue(found.get(0).contains("took effect 2 times"), found.toString());
    }

    @Test
    void anAcknowledgedWriteThatNeverTookEffectIsFound() {
        List<String> found = violations(List.of(op("k", Kind.REPLACE, "a", 0, 10, Answer.TRUE)), List.of());
        assertTrue(found.get(0).contains("never took effect"), found.toString());
    }

    @Test
    void aRejectAnsweredOtherThanItsCommitDecidedIsFound() {
        List<String> found = violations(List.of(op("k", Kind.REJECT, "a", 0, 10, Answer.FALSE)),
                List.of(event(1, "insert", "k", "a")));
        assertTrue(found.get(0).contains("answered false, but took effect"), found.toString());
        found = violations(List.of(op("k", Kind.REJECT, "a", 0, 10, Answer.TRUE), op("k", Kind.REPLACE, "x", 0, 5,
                Answer.TRUE)), List.of(event(1, "insert", "k", "x"), event(2, "update", "k", "a")));
        assertTrue(found.stream().anyMatch(v -> v.contains("a REJECT answered true, but it updated")), found.toString());
    }

    @Test
    void deletesAnsweredOtherThanTheirCommitsDecidedAreFound() {
        List<String> found = violations(List.of(op("k", Kind.DELETE, null, 0, 10, Answer.FALSE)),
                List.of(event(1, "delete", "k", null)));
        assertTrue(found.get(0).contains("1 deletions in the history, but 0 deletes answered true"), found.toString());
        found = violations(List.of(op("k", Kind.DELETE, null, 0, 10, Answer.TRUE)), List.of());
        assertTrue(found.get(0).contains("0 deletions"), found.toString());
    }

    @Test
    void anErrorForAWriteThatTookEffectIsFoundUnlessItWasInDoubt() {
        List<String> found = violations(List.of(op("k", Kind.REPLACE, "a", 0, 10, Answer.ERROR)),
                List.of(event(1, "insert", "k", "a")));
        assertTrue(found.get(0).contains("answered Error (not in doubt), but took effect"), found.toString());
        HistoryChecker.Result inDoubt = HistoryChecker.check(List.of(new Op("A", "k", Kind.REPLACE, "a", 0, 10,
                Answer.ERROR, true)), List.of(event(1, "insert", "k", "a")), true);
        assertEquals(List.of(), inDoubt.violations());
        assertEquals(1, inDoubt.inDoubtTookEffect(), "counted apart");
    }

    @Test
    void anyErrorIsFoundWhereEveryFaultEndedWithinTheTimeOut() {
        List<String> found = HistoryChecker.check(List.of(op("k", Kind.REPLACE, "a", 0, 10, Answer.ERROR)), List.of(),
                false).violations();
        assertTrue(found.get(0).contains("every fault of the schedule ended within the failover time-out"), found.toString());
    }

    @Test
    void aValueThatReturnsAfterALaterAcknowledgedOneIsFound() {
        List<Op> ops = List.of(op("k", Kind.REPLACE, "a", 0, 10, Answer.TRUE), op("k", Kind.REPLACE, "b", 20, 30, Answer.TRUE));
        List<String> found = violations(ops, List.of(event(1, "insert", "k", "b"), event(2, "update", "k", "a")));
        assertTrue(found.get(0).contains("a value came back after a later acknowledged one"), found.toString());
        List<Op> overlapping = List.of(op("k", Kind.REPLACE, "a", 0, 25, Answer.TRUE),
                op("k", Kind.REPLACE, "b", 20, 30, Answer.TRUE));
        assertEquals(List.of(), violations(overlapping, List.of(event(1, "insert", "k", "b"), event(2, "update", "k", "a"))),
                "writes whose request and answer overlap may be ordered either way");
    }

    @Test
    void aRowVersionNoWriteSentIsFound() {
        List<String> found = violations(List.of(), List.of(event(1, "insert", "k", "phantom")));
        assertTrue(found.get(0).contains("a row version no write sent"), found.toString());
    }
}
