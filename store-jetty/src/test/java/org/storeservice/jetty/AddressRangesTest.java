package org.storeservice.jetty;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class AddressRangesTest {
    private static boolean contains(String ranges, String address) throws Exception {
        return AddressRanges.parse(ranges).contains(InetAddress.getByName(address));
    }

    @Test
    void ipv4RangesMatchByPrefix() throws Exception {
        assertTrue(contains("10.0.0.0/8", "10.255.1.2"));
        assertFalse(contains("10.0.0.0/8", "11.0.0.1"));
        assertTrue(contains("192.168.1.128/25", "192.168.1.200"));
        assertFalse(contains("192.168.1.128/25", "192.168.1.127"));
        assertTrue(contains("0.0.0.0/0", "8.8.8.8"));
        assertTrue(contains("127.0.0.1", "127.0.0.1"));
        assertFalse(contains("127.0.0.1", "127.0.0.2"));
    }

    @Test
    void ipv6RangesMatchIpv6AndMappedAddressesAsIpv4() throws Exception {
        assertTrue(contains("::1", "::1"));
        assertTrue(contains("2001:db8::/32", "2001:db8:1::5"));
        assertFalse(contains("2001:db8::/32", "2001:db9::5"));
        assertFalse(contains("::1", "127.0.0.1"));
        assertTrue(contains("10.0.0.0/8", "::ffff:10.1.2.3"));
        assertTrue(contains("[::1]/128", "::1"));
    }

    @Test
    void aMappedAddressIsItsIpv4AddressOnEitherSide() throws Exception {
        byte[] mapped = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff, 10, 1, 2, 3};
        // Built so, the JDK keeps it an Inet6Address (getByName would already have turned it into IPv4).
        InetAddress kept = Inet6Address.getByAddress(null, mapped, -1);
        assertTrue(AddressRanges.parse("10.0.0.0/8").contains(kept));
        assertFalse(AddressRanges.parse("11.0.0.0/8").contains(kept));
        assertTrue(contains("::ffff:10.0.0.0/8", "10.9.9.9"));
        assertThrows(IllegalArgumentException.class, () -> AddressRanges.parse("::ffff:10.0.0.0/104"));
    }

    @Test
    void listsAreCommaSeparatedWithBlanksIgnored() throws Exception {
        AddressRanges ranges = AddressRanges.parse(" 10.0.0.0/8 , ::1 ,");
        assertTrue(ranges.contains(InetAddress.getByName("10.0.0.1")));
        assertTrue(ranges.contains(new InetSocketAddress("::1", 80)));
        assertFalse(ranges.contains(new InetSocketAddress("192.0.2.1", 80)));
        assertEquals("10.0.0.0/8,::1", ranges.toString());
    }

    @Test
    void unresolvedAddressesCountOnlyAsIpLiterals() {
        AddressRanges ranges = AddressRanges.parse("203.0.113.0/24,2001:db8::/32");
        assertTrue(ranges.contains(InetSocketAddress.createUnresolved("203.0.113.9", 0)));
        assertTrue(ranges.contains(InetSocketAddress.createUnresolved("[2001:db8::1]", 0)));
        assertFalse(ranges.contains(InetSocketAddress.createUnresolved("198.51.100.1", 0)));
        assertFalse(ranges.contains(InetSocketAddress.createUnresolved("proxy.internal", 0)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", " , ", "localhost", "example.com/8", "10.0.0.0/33", "::1/129", "10.0.0.0/x",
            "256.1.1.1", "10.0.0", "1:2:3"})
    void rejectsWhatIsNotAnIpRange(String text) {
        assertThrows(IllegalArgumentException.class, () -> AddressRanges.parse(text));
    }
}
