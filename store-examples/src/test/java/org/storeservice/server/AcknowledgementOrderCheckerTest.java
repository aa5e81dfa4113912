package org.storeservice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.storeservice.server.ClientWrite.Observed;

/**
 * The checker of {@link SqliteCrashSchedulesIT} against histories written by hand: it refuses each wrong outcome
 * (planted bugs: a superseded value, a lost write, a torn value, an Error that took effect, a value moved to another
 * key, a value from nowhere, an old value come back, a read of a superseded value or of a write not yet sent) and
 * accepts each outcome that the answers allow, concurrent writes surviving in either order included. Times are in
 * milliseconds.
 */
class AcknowledgementOrderCheckerTest {
    private static final String K = "k";

    private static ClientWrite acknowledged(String id, String key, long sent, long answered) {
        return ClientWrite.sent(id, key, ClientWrite.Kind.TEXT, 10, sent * 1_000_000).answered(true, answered * 1_000_000);
    }

    private static ClientWrite unanswered(String id, String key, long sent) {
        return ClientWrite.sent(id, key, ClientWrite.Kind.BYTES, 100_000, sent * 1_000_000);
    }

    private static Optional<Observed> seen(ClientWrite write) {
        return Optional.of(ClientWrite.observe(write.entry()));
    }

    private static Optional<Observed> seen(ExportedEntry entry) {
        return Optional.of(ClientWrite.observe(entry));
    }

    private static ClientRead read(ClientWrite returned, long start, long end) {
        return new ClientRead(K, returned == null ? Optional.empty() : seen(returned), start * 1_000_000, end * 1_000_000);
    }

    private static Optional<String> outcome(List<ClientWrite> history, ClientWrite survivor) {
        return new AcknowledgementOrderChecker(history).checkSurvivor(K, Optional.empty(), seen(survivor));
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
        AcknowledgementOrderChecker checker = new AcknowledgementOrderChecker(List.of(a, inFlight, late));
        assertEquals(Optional.empty(), checker.checkSurvivor(K, Optional.empty(), seen(a)));
        assertEquals(Optional.empty(), checker.checkSurvivor(K, Optional.empty(), seen(inFlight)));
        assertEquals(Optional.empty(), checker.checkSurvivor(K, Optional.empty(), seen(late)));
        byte[] whole = late.bytes();
        Optional<String> torn = checker.checkSurvivor(K, Optional.empty(),
                seen(new ExportedEntry(true, Arrays.copyOf(whole, whole.length - 1))));
        assertTrue(torn.orElse("").contains("not whole"), torn.toString());
        byte[] flipped = whole.clone();
        flipped[whole.length / 2] ^= 1;
        assertTrue(checker.checkSurvivor(K, Optional.empty(), seen(new ExportedEntry(true, flipped))).isPresent());
        Optional<String> asText = checker.checkSurvivor(K, Optional.empty(), seen(new ExportedEntry(false, whole)));
        assertTrue(asText.orElse("").contains("not whole, or not as sent"), asText.toString());
    }

    @Test
    void refusesALostKeyOnlyIfSomethingWasAcknowledged() {
        AcknowledgementOrderChecker acknowledged = new AcknowledgementOrderChecker(List.of(acknowledged("a", K, 0, 10)));
        assertTrue(acknowledged.checkSurvivor(K, Optional.empty(), Optional.empty()).orElse("").contains("held nothing"));
        AcknowledgementOrderChecker inFlight = new AcknowledgementOrderChecker(List.of(unanswered("f", K, 0)));
        assertEquals(Optional.empty(), inFlight.checkSurvivor(K, Optional.empty(), Optional.empty()));
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
        assertTrue(checker.checkSurvivor(K, Optional.empty(), seen(other)).orElse("").contains("sent to other"));
        ClientWrite nobody = acknowledged("n", K, 0, 10);
        assertTrue(checker.checkSurvivor(K, Optional.empty(), seen(nobody)).isPresent());
        List<String> violations = checker.check(Map.of(), Map.of(K, nobody.entry(), "other", other.entry()));
        assertEquals(1, violations.size(), violations.toString());
        assertTrue(violations.get(0).startsWith("k: after the crash it held a value that the schedule did not send"),
                violations.toString());
        assertTrue(checker.checkSurvivor(K, Optional.empty(), seen(new ExportedEntry(false, new byte[] {'x'}))).isPresent(),
                "a value without a header");
    }

    @Test
    void whatAKeyHeldBeforeTheScheduleCountsAsAnsweredBeforeEveryWriteOfIt() {
        Optional<Observed> held = seen(acknowledged("old", K, 0, 1));
        ClientWrite a = acknowledged("a", K, 0, 10);
        ClientWrite inFlight = unanswered("f", "j", 0);
        AcknowledgementOrderChecker checker = new AcknowledgementOrderChecker(List.of(a, inFlight));
        assertTrue(checker.checkSurvivor(K, held, held).orElse("").contains("stale"));
        assertTrue(checker.checkSurvivor(K, held, Optional.empty()).isPresent());
        assertEquals(Optional.empty(), checker.checkSurvivor(K, held, seen(a)));
        // a key whose only write was never answered may keep its old value, or take the new one
        assertEquals(Optional.empty(), checker.checkSurvivor("j", held, held));
        assertEquals(Optional.empty(), checker.checkSurvivor("j", held, seen(inFlight)));
        assertTrue(checker.checkSurvivor("j", held, Optional.empty()).orElse("").contains("nothing deletes"));
        // an older value than the one held before must not come back
        assertTrue(checker.checkSurvivor("j", held, seen(acknowledged("older", K, 0, 1))).isPresent());
    }

    @Test
    void countsTheAcknowledgedWritesThatMustNotSurvive() {
        ClientWrite a = acknowledged("a", K, 0, 10);
        ClientWrite b = acknowledged("b", K, 5, 12);
        ClientWrite c = acknowledged("c", K, 11, 20);
        assertEquals(List.of(a), new AcknowledgementOrderChecker(List.of(a, b, c)).superseded(K));
    }

    // ---- reads during the schedule -------------------------------------------------------------------------

    @Test
    void aReadAfterAnAcknowledgementMustNotReturnWhatItSuperseded() {
        ClientWrite a = acknowledged("a", K, 0, 10);
        ClientWrite b = acknowledged("b", K, 11, 20);
        AcknowledgementOrderChecker checker = new AcknowledgementOrderChecker(List.of(a, b));
        Optional<String> stale = checker.checkRead(read(a, 21, 22), Optional.empty());
        assertTrue(stale.orElse("").contains("stale: read from"), stale.toString());
        assertEquals(Optional.empty(), checker.checkRead(read(b, 21, 22), Optional.empty()));
        // while b was in flight, a read may return a or b
        assertEquals(Optional.empty(), checker.checkRead(read(a, 12, 13), Optional.empty()));
        assertEquals(Optional.empty(), checker.checkRead(read(b, 12, 13), Optional.empty()));
        assertEquals(List.of(a), checker.superseded(read(b, 21, 22)));
        assertEquals(List.of(), checker.superseded(read(b, 12, 13)));
    }

    @Test
    void aReadMustNotReturnAWriteSentAfterItEndedNorNothingAfterAnAcknowledgement() {
        ClientWrite a = acknowledged("a", K, 10, 20);
        AcknowledgementOrderChecker checker = new AcknowledgementOrderChecker(List.of(a));
        assertTrue(checker.checkRead(read(a, 0, 5), Optional.empty()).orElse("").contains("sent after the read ended"));
        assertEquals(Optional.empty(), checker.checkRead(read(a, 0, 15), Optional.empty()));
        assertEquals(Optional.empty(), checker.checkRead(read(null, 0, 15), Optional.empty()));
        assertTrue(checker.checkRead(read(null, 21, 22), Optional.empty()).isPresent());
        Optional<Observed> held = seen(acknowledged("old", K, 0, 1));
        assertEquals(Optional.empty(), checker.checkRead(new ClientRead(K, held, 0, 15_000_000), held));
        assertTrue(checker.checkRead(new ClientRead(K, held, 21_000_000, 22_000_000), held).isPresent());
    }
}
