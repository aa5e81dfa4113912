package org.storeservice.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.Test;

/** Which handshake failures are refusals for the version, and how often they are logged (the real clients: TlsVersionsTest). */
class RefusedTlsHandshakesTest {
    @Test
    void theVersionIsReadFromTheJdksTwoWaysOfRefusingIt() {
        assertEquals("TLSv1", RefusedTlsHandshakes.refusedVersion(new SSLHandshakeException(
                "Client requested protocol TLSv1 is not enabled or supported in server context")));
        assertEquals("TLSv1.1", RefusedTlsHandshakes.refusedVersion(new RuntimeException("wrapped", new SSLHandshakeException(
                "The client supported protocol versions [TLSv1, TLSv1.1] are not accepted by server preferences [TLSv1.3, TLSv1.2]"))));
        assertEquals("TLSv1.2", RefusedTlsHandshakes.refusedVersion(new SSLHandshakeException(
                "The client supported protocol versions [(D)TLS-64.0, TLSv1.2] are not accepted by server preferences [TLSv1.3]")));
        assertNull(RefusedTlsHandshakes.refusedVersion(new SSLHandshakeException("Remote host terminated the handshake")));
        assertNull(RefusedTlsHandshakes.refusedVersion(new SSLHandshakeException(null)));
    }

    @Test
    void onlyTheVersionsTheJdkKnowsAreToldByNameAndTheOthersQuotedBoundedInTheLog() {
        for (String known : RefusedTlsHandshakes.KNOWN) {
            assertEquals(known, RefusedTlsHandshakes.bounded(known));
        }
        for (String unknown : new String[] {"(D)TLS-64.0", "(D)TLS-127.255", "", "tlsv1"}) {
            assertEquals("other", RefusedTlsHandshakes.bounded(unknown));
        }
        assertEquals("(D)TLS-64.0", RefusedTlsHandshakes.quoted("(D)TLS-64.0"));
        assertEquals("a\\u000ab\\u005c", RefusedTlsHandshakes.quoted("a\nb\\"));
        assertEquals("x".repeat(32) + "...", RefusedTlsHandshakes.quoted("x".repeat(1000)));
    }

    @Test
    void oneLineEveryTenSecondsSayingHowManyMoreWereRefused() {
        AtomicLong now = new AtomicLong();
        RefusedTlsHandshakes refusals = new RefusedTlsHandshakes(() -> "TLSv1.3, TLSv1.2", null, now::get);
        assertEquals("Refused a TLS handshake from 192.0.2.7: it offered TLSv1, this port serves TLSv1.3, TLSv1.2"
                + " (see --tls-protocols, docs/operating.md)", refusals.line("192.0.2.7", "TLSv1"));
        now.addAndGet(9_999_999_999L);
        assertNull(refusals.line("192.0.2.8", "TLSv1.1"));
        assertNull(refusals.line("192.0.2.9", "TLSv1"));
        now.addAndGet(1);
        assertEquals("Refused a TLS handshake from 192.0.2.7: it offered TLSv1, this port serves TLSv1.3, TLSv1.2;"
                + " 2 more refused since the last such line (see --tls-protocols, docs/operating.md)",
                refusals.line("192.0.2.7", "TLSv1"));
    }
}
