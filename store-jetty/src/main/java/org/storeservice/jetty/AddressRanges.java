package org.storeservice.jetty;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * A set of IP address ranges in CIDR notation, such as {@code 10.0.0.0/8,192.168.1.7,::1/128}: who may call
 * (see {@link AllowListHandler}), or which proxies are believed (see {@link TrustedProxyCustomizer}). A bare
 * address is a range of one. IPv4 ranges match IPv4 addresses, IPv6 ranges IPv6 addresses, except that an
 * IPv4-mapped IPv6 address ({@code ::ffff:10.1.2.3}) is compared as the IPv4 address it carries.
 *
 * <p>Only IP literals are accepted, never host names: a range must not depend on what DNS answers today.
 * Immutable and thread-safe.
 */
public final class AddressRanges {
    private final List<Range> ranges;

    private AddressRanges(List<Range> ranges) {
        this.ranges = List.copyOf(ranges);
    }

    /**
     * Parses a comma-separated list of ranges ({@code ADDRESS} or {@code ADDRESS/PREFIX}); blanks around
     * entries are ignored.
     *
     * @throws IllegalArgumentException if an entry is not an IP literal with a prefix length in range, or the list is empty
     */
    public static AddressRanges parse(String commaSeparated) {
        List<Range> ranges = new ArrayList<>();
        for (String entry : Objects.requireNonNull(commaSeparated, "ranges").split(",")) {
            if (!entry.isBlank()) {
                ranges.add(Range.parse(entry.strip()));
            }
        }
        if (ranges.isEmpty()) {
            throw new IllegalArgumentException("No address range in '" + commaSeparated + "'");
        }
        return new AddressRanges(ranges);
    }

    /** Whether {@code address} lies in one of the ranges. */
    public boolean contains(InetAddress address) {
        byte[] bytes = unmapped(address.getAddress());
        for (Range range : ranges) {
            if (range.contains(bytes)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Whether {@code address} is an IP socket address inside one of the ranges; {@code false} for any other
     * kind. An unresolved one (as a forwarded client address is) counts if its host is an IP literal.
     */
    public boolean contains(SocketAddress address) {
        if (!(address instanceof InetSocketAddress inet)) {
            return false;
        }
        if (inet.getAddress() != null) {
            return contains(inet.getAddress());
        }
        byte[] literal = Range.literalOrNull(inet.getHostString());
        if (literal == null) {
            return false;
        }
        byte[] bytes = unmapped(literal);
        return ranges.stream().anyMatch(range -> range.contains(bytes));
    }

    @Override
    public String toString() {
        return String.join(",", ranges.stream().map(Range::toString).toList());
    }

    /** An IPv4-mapped IPv6 address as its IPv4 address; any other address as it is. */
    private static byte[] unmapped(byte[] address) {
        if (address.length == 16) {
            for (int i = 0; i < 10; i++) {
                if (address[i] != 0) {
                    return address;
                }
            }
            if (address[10] == (byte) 0xff && address[11] == (byte) 0xff) {
                return Arrays.copyOfRange(address, 12, 16);
            }
        }
        return address;
    }

    private record Range(byte[] network, int prefix, String text) {
        static Range parse(String text) {
            int slash = text.indexOf('/');
            String literal = slash < 0 ? text : text.substring(0, slash);
            byte[] address = unmapped(literal(literal, text));
            int bits = address.length * 8;
            int prefix = bits;
            if (slash >= 0) {
                try {
                    prefix = Integer.parseInt(text.substring(slash + 1));
                } catch (NumberFormatException e) {
                    prefix = -1;
                }
                if (prefix < 0 || prefix > bits) {
                    throw new IllegalArgumentException("Invalid prefix length in address range '" + text + "'");
                }
            }
            return new Range(address, prefix, text);
        }

        /** The address of an IP literal, never looked up in DNS. */
        private static byte[] literal(String literal, String text) {
            byte[] address = literalOrNull(literal);
            if (address == null) {
                throw new IllegalArgumentException("Not an IP address range: '" + text + "'");
            }
            return address;
        }

        /** The address of an IP literal (IPv6 in brackets or not), or {@code null} if it is none; never asks DNS. */
        static byte[] literalOrNull(String literal) {
            String bare = literal.startsWith("[") && literal.endsWith("]") ? literal.substring(1, literal.length() - 1) : literal;
            boolean ipv4 = bare.matches("\\d{1,3}(\\.\\d{1,3}){3}")
                    && Arrays.stream(bare.split("\\.")).allMatch(octet -> Integer.parseInt(octet) <= 255);
            boolean ipv6 = bare.contains(":") && bare.matches("[0-9A-Fa-f:.]+");
            if (!ipv4 && !ipv6) {
                return null;
            }
            try {
                // A valid dotted quad, or text with a colon (taken as an IPv6 literal or refused): never asks DNS.
                return InetAddress.getByName(bare).getAddress();
            } catch (UnknownHostException e) {
                return null;
            }
        }

        boolean contains(byte[] address) {
            if (address.length != network.length) {
                return false;
            }
            int whole = prefix / 8;
            for (int i = 0; i < whole; i++) {
                if (address[i] != network[i]) {
                    return false;
                }
            }
            int rest = prefix % 8;
            if (rest == 0) {
                return true;
            }
            int mask = 0xff << (8 - rest);
            return (address[whole] & mask) == (network[whole] & mask);
        }

        @Override
        public String toString() {
            return text;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Range range && range.text.equals(text);
        }

        @Override
        public int hashCode() {
            return text.hashCode();
        }
    }
}
