package org.storeservice.jetty;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.eclipse.jetty.util.InetAddressSet;

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
    private static final byte[] MAPPED_PREFIX = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, (byte) 0xff, (byte) 0xff};

    private final List<String> entries;
    /** Jetty's matcher; fed only validated IP literals, so it never asks DNS. */
    private final InetAddressSet matcher = new InetAddressSet();

    private AddressRanges(List<String> entries) {
        this.entries = List.copyOf(entries);
        for (String entry : entries) {
            matcher.add(bare(entry));
        }
    }

    /**
     * Parses a comma-separated list of ranges ({@code ADDRESS} or {@code ADDRESS/PREFIX}); blanks around
     * entries are ignored.
     *
     * @param commaSeparated the ranges, for example {@code 10.0.0.0/8, ::1}
     * @return the ranges
     * @throws IllegalArgumentException if an entry is not an IP literal with a prefix length in range, or the list is empty
     */
    public static AddressRanges parse(String commaSeparated) {
        List<String> entries = new ArrayList<>();
        for (String entry : Objects.requireNonNull(commaSeparated, "ranges").split(",")) {
            if (!entry.isBlank()) {
                entries.add(validated(entry.strip()));
            }
        }
        if (entries.isEmpty()) {
            throw new IllegalArgumentException("No address range in '" + commaSeparated + "'");
        }
        return new AddressRanges(entries);
    }

    /**
     * {@return whether {@code address} lies in one of the ranges}
     *
     * @param address an IP address
     */
    public boolean contains(InetAddress address) {
        return matcher.test(unmapped(address));
    }

    /**
     * {@return whether {@code address} is an IP socket address inside one of the ranges}; {@code false} for any other
     * kind. An unresolved one (as a forwarded client address is) counts if its host is an IP literal.
     *
     * @param address a connection's or a forwarded client's address
     */
    public boolean contains(SocketAddress address) {
        if (!(address instanceof InetSocketAddress inet)) {
            return false;
        }
        if (inet.getAddress() != null) {
            return contains(inet.getAddress());
        }
        InetAddress literal = literalOrNull(inet.getHostString());
        return literal != null && contains(literal);
    }

    @Override
    public String toString() {
        return String.join(",", entries);
    }

    /** {@code entry} if it is an IP literal with an optional prefix length in range; else why not. */
    private static String validated(String entry) {
        int slash = entry.indexOf('/');
        InetAddress address = literalOrNull(slash < 0 ? entry : entry.substring(0, slash));
        if (address == null) {
            throw new IllegalArgumentException("Not an IP address range: '" + entry + "'");
        }
        if (slash >= 0) {
            int bits = unmapped(address).getAddress().length * 8;
            int prefix;
            try {
                prefix = Integer.parseInt(entry.substring(slash + 1));
            } catch (NumberFormatException e) {
                prefix = -1;
            }
            if (prefix < 0 || prefix > bits) {
                throw new IllegalArgumentException("Invalid prefix length in address range '" + entry + "'");
            }
        }
        return entry;
    }

    /** A validated entry as Jetty's pattern syntax takes it: an IPv6 literal without brackets. */
    private static String bare(String entry) {
        return entry.startsWith("[") ? entry.substring(1).replaceFirst("]", "") : entry;
    }

    /** An IPv4-mapped IPv6 address as the IPv4 address it carries; any other address as it is. */
    private static InetAddress unmapped(InetAddress address) {
        byte[] bytes = address.getAddress();
        if (bytes.length == 16 && Arrays.mismatch(bytes, 0, 12, MAPPED_PREFIX, 0, 12) == -1) {
            try {
                return InetAddress.getByAddress(Arrays.copyOfRange(bytes, 12, 16));
            } catch (UnknownHostException e) {
                throw new AssertionError("four bytes are an IPv4 address", e);
            }
        }
        return address;
    }

    /** The address of an IP literal (IPv6 in brackets or not), or {@code null} if it is none; never asks DNS. */
    private static InetAddress literalOrNull(String literal) {
        String bare = literal.startsWith("[") && literal.endsWith("]") ? literal.substring(1, literal.length() - 1) : literal;
        boolean ipv4 = bare.matches("\\d{1,3}(\\.\\d{1,3}){3}")
                && Arrays.stream(bare.split("\\.")).allMatch(octet -> Integer.parseInt(octet) <= 255);
        boolean ipv6 = bare.contains(":") && bare.matches("[0-9A-Fa-f:.]+");
        if (!ipv4 && !ipv6) {
            return null;
        }
        try {
            // A valid dotted quad, or text with a colon (taken as an IPv6 literal or refused): never asks DNS.
            return InetAddress.getByName(bare);
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
