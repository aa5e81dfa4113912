package org.storeservice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the ready server removes from the JVM's {@code jdk.tls.disabledAlgorithms} for {@code --tls-protocols}: the
 * versions named, and nothing else (the property itself is changed only in a JVM of its own: {@link LegacyTlsJarIT}).
 */
class LegacyTlsProtocolsTest {
    /** JDK 25's value. */
    private static final String JDK_25 = "SSLv3, TLSv1, TLSv1.1, DTLSv1.0, RC4, DES, MD5withRSA, DH keySize < 1024,"
            + " EC keySize < 224, 3DES_EDE_CBC, anon, NULL, ECDH, TLS_RSA_*, rsa_pkcs1_sha1 usage HandshakeSignature,"
            + " ecdsa_sha1 usage HandshakeSignature, dsa_sha1 usage HandshakeSignature";

    @Test
    void onlyTheVersionsNamedLeaveTheProperty() {
        assertEquals("SSLv3, DTLSv1.0, RC4, DES, MD5withRSA, DH keySize < 1024, EC keySize < 224, 3DES_EDE_CBC, anon,"
                + " NULL, ECDH, TLS_RSA_*, rsa_pkcs1_sha1 usage HandshakeSignature, ecdsa_sha1 usage HandshakeSignature,"
                + " dsa_sha1 usage HandshakeSignature", LegacyTlsProtocols.without(JDK_25, List.of("TLSv1", "TLSv1.1")));
        assertEquals("SSLv3, TLSv1, DTLSv1.0", LegacyTlsProtocols.without("SSLv3, TLSv1, TLSv1.1, DTLSv1.0",
                List.of("TLSv1.1")), "TLS 1.1 alone leaves TLS 1.0 disabled");
        assertEquals("SSLv3, TLSv1", LegacyTlsProtocols.without("SSLv3,TLSv1,  ", List.of("TLSv1.1")));
    }
}
