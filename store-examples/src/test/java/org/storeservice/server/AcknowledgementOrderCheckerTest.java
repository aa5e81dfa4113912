package org.storeservice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The checker of {@link SqliteCrashSchedulesIT} against histories written by hand: it refuses each wrong outcome
 * (planted bugs: a superseded value, a lost write, a torn value, an Error that took effect, a value moved to another
 * key, a value from nowhere, an old value come back) and accepts each outcome that the answers allow, concurrent writes
 * surviving in either order included. Times are in milliseconds.
 */
class AcknowledgementOrderCheckerTest {
    private static final String K = "k";

    private static ClientWrite acknowledged(String id, String key, long sent, long answered) {
        return ClientWrite.sent(id, key, ClientWrite.Kind.TEXT, 10, sent * 1_000_000).answered(true, answered * 1_000_000);
    }

    private static ClientWrite unanswered(String id, String key, long sent) {
        return ClientWrite.sent(id, key, ClientWrite.Kind.BYTES, 100_000, sent * 1_000_000);
    }

    private static Optional<String> outcome(List<ClientWrite> history, ClientWrite survivor) {
        return new AcknowledgementOrderChecker(history).check(K, Optional.empty(), Optional.of(survivor.entry()));
    }

    @Test
    void refusesAnAcknowledgedValueThatALaterAcknowledgedWriteSuperseded() {
        ClientWrite a = acknowledged("a", K, 0, 10);
        ClientWrite b = acknowledged("b", K, 11, 20);
        Optional<String> violation = outcome(List.of(a, b), a);
        assertTrue(violation.orElse("").contains("stale"), violation.toString());
        assertEquals(Optional.empty(), outcome(List.of(a, b), b));
    }

    @Test
    void refusesWhatTheSupersededWriteItselfSupersededAsWell() {
        ClientWrite a = acknowledged("a", K, 0, 10);
        ClientWrite b = acknowledged("b", K, 11, 20);
        ClientWrite c = acknowledged("c", K, 21, 30);
        assertTrue(outcome(List.of(a, b, c), a).isPresent());
        assertTrue(outcome(List.of(a, b, c), b).isPresent());
        assertEquals(Optional.empty(), outcome(List.of(a, b, c), c));
    }

    @Test
    void acceptsEitherOfTwoConcurrentWritesButNothingBeforeThem() {
        ClientWrite a = acknowledged("a", K, 0, 5);
        ClientWrite b = acknowledged("b", K, 10, 30); // b and c overlap: either may have taken effect last
        ClientWrite c = acknowledged("c", K, 20, 25);
        List<ClientWrite> history = List.of(a, b, c);
        assertEquals(Optional.empty(), outcome(history, b));
        assertEquals(Optional.empty(), outcome(history, c));
        assertTrue(outcome(history, a).isPresent());
    }

    @Test
    void aWriteAnsweredBeforeTheLastAcknowledgedWasSentIsStaleEvenIfItOverlapsAnEarlierOne() {
        ClientWrite a = acknowledged("a", K, 0, 15);
        ClientWrite b = acknowledged("b", K, 10, 20);
        ClientWrite c = acknowledged("c", K, 16, 30); // sent after a's answer: a is superseded, b is not
        assertTrue(outcome(List.of(a, b, c), a).isPresent());
        assertEquals(Optional.empty(), outcome(List.of(a, b, c), b));
    }

    @Test
    void theLastAcknowledgedWriteIsTheOneSentLastNotTheOneAnsweredLast() {
        ClientWrite x = acknowledged("x", K, 0, 15);
        ClientWrite b = acknowledged("b", K, 10, 50); // answered last, sent before x's answer
        ClientWrite c = acknowledged("c", K, 20, 30); // sent last, after x's answer: x is superseded
        assertTrue(outcome(List.of(x, b, c), x).isPresent());
        assertEquals(Optional.empty(), outcome(List.of(x, b, c), b));
    }

    @Test
    void anUnansweredWriteMayOrMayNotSurviveButOnlyWhole() {
        ClientWrite a = acknowledged("a", K, 0, 10);
        ClientWrite inFlight = unanswered("f", K, 5);
        ClientWrite late = unanswered("g", K, 12);
        List<ClientWrite> history = List.of(a, inFlight, late);
        AcknowledgementOrderChecker checker = new AcknowledgementOrderChecker(history);
        assertEquals(Optional.empty(), checker.check(K, Optional.empty(), Optional.of(a.entry())));
        assertEquals(Optional.empty(), checker.check(K, Optional.empty(), Optional.of(inFlight.entry())));
        assertEquals(Optional.empty(), checker.check(K, Optional.empty(), Optional.of(late.entry())));
        byte[] whole = late.bytes();
        Optional<String> torn = checker.check(K, Optional.empty(),
                Optional.of(new ExportedEntry(true, Arrays.copyOf(whole, whole.length - 1))));
        assertTrue(torn.orElse("").contains("not whole"), torn.toString());
        byte[] flipped = whole.clone();
        flipped[whole.length / 2] ^= 1;
        assertTrue(checker.check(K, Optional.empty(), Optional.of(new ExportedEntry(true, flipped))).isPresent());
        Optional<String> asText = checker.check(K, Optional.empty(), Optional.of(new ExportedEntry(false, whole)));
        assertTrue(asText.orElse("").contains("as text"), asText.toString());
    }

    @Test
    void refusesALostKeyOnlyIfSomethingWasAcknowledged() {
        AcknowledgementOrderChecker acknowledged = new AcknowledgementOrderChecker(List.of(acknowledged("a", K, 0, 10)));
        assertTrue(acknowledged.check(K, Optional.empty(), Optional.empty()).orElse("").contains("lost"));
        AcknowledgementOrderChecker inFlight = new AcknowledgementOrderChecker(List.of(unanswered("f", K, 0)));
        assertEquals(Optional.empty(), inFlight.check(K, Optional.empty(), Optional.empty()));
    }

    @Test
    void refusesAWriteAnsweredErrorThatTookEffect() {
        ClientWrite error = ClientWrite.sent("e", K, ClientWrite.Kind.TEXT, 3, 0).answered(false, 5);
        assertTrue(outcome(List.of(error), error).orElse("").contains("answered Error"));
    }

    @Test
    void refusesAValueSentToAnotherKeyOrByNoOne() {
        ClientWrite other = acknowledged("o", "other", 0, 10);
        AcknowledgementOrderChecker checker = new AcknowledgementOrderChecker(List.of(other));
        assertTrue(checker.check(K, Optional.empty(), Optional.of(other.entry())).orElse("").contains("sent to other"));
        ClientWrite nobody = acknowledged("n", K, 0, 10);
        assertTrue(checker.check(K, Optional.empty(), Optional.of(nobody.entry())).isPresent());
        List<String> violations = checker.check(Map.of(), Map.of(K, nobody.entry(), "other", other.entry()));
        assertEquals(1, violations.size(), violations.toString());
        assertTrue(violations.get(0).startsWith("k: holds a value that the schedule did not send"), violations.toString());
    }

    @Test
    void whatAKeyHeldBeforeTheScheduleCountsAsAnsweredBeforeEveryWriteOfIt() {
        ExportedEntry held = acknowledged("old", K, 0, 1).entry();
        ClientWrite a = acknowledged("a", K, 0, 10);
        ClientWrite inFlight = unanswered("f", "j", 0);
        AcknowledgementOrderChecker checker = new AcknowledgementOrderChecker(List.of(a, inFlight));
        assertTrue(checker.check(K, Optional.of(held), Optional.of(held)).orElse("").contains("stale"));
        assertTrue(checker.check(K, Optional.of(held), Optional.empty()).isPresent());
        assertEquals(Optional.empty(), checker.check(K, Optional.of(held), Optional.of(a.entry())));
        // a key whose only write was never answered may keep its old value, or take the new one
        assertEquals(Optional.empty(), checker.check("j", Optional.of(held), Optional.of(held)));
        assertEquals(Optional.empty(), checker.check("j", Optional.of(held), Optional.of(inFlight.entry())));
        // an older value than the one held before must not come back
        ExportedEntry older = acknowledged("older", K, 0, 1).entry();
        assertTrue(checker.check("j", Optional.of(held), Optional.of(older)).isPresent());
    }

    @Test
    void countsTheAcknowledgedWritesThatMustNotSurvive() {
        ClientWrite a = acknowledged("a", K, 0, 10);
        ClientWrite b = acknowledged("b", K, 5, 12);
        ClientWrite c = acknowledged("c", K, 11, 20);
        assertEquals(List.of(a), new AcknowledgementOrderChecker(List.of(a, b, c)).superseded(K));
    }
}
