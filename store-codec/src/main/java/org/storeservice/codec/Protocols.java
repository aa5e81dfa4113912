package org.storeservice.codec;

import java.util.Collection;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Which {@link Protocol}s are on, as web.config's {@code <webServices><protocols>} sets them. A protocol
 * that is off answers exactly as ASMX answers with it removed: its requests fall through to the next
 * protocol, and the WSDL, disco document and help pages leave it out. Immutable.
 */
public final class Protocols {
    private static final Protocols ALL = new Protocols(EnumSet.allOf(Protocol.class));

    private final Set<Protocol> enabled;

    private Protocols(EnumSet<Protocol> enabled) {
        this.enabled = enabled;
    }

    /**
     * {@return every protocol}: the four bindings of the contract plus {@code HttpPostLocalhost} and
     * {@code Documentation}, as machine.config's defaults with {@code HttpGet} and {@code HttpPost} added.
     * The default.
     */
    public static Protocols all() {
        return ALL;
    }

    /**
     * {@return exactly {@code protocols}} None at all is allowed: every request then gets ASMX's "unrecognized" page.
     *
     * @param protocols the protocols that are on
     */
    public static Protocols of(Collection<Protocol> protocols) {
        EnumSet<Protocol> set = EnumSet.noneOf(Protocol.class);
        for (Protocol protocol : protocols) {
            set.add(Objects.requireNonNull(protocol, "protocol"));
        }
        return new Protocols(set);
    }

    /**
     * {@return exactly {@code protocols}}, as {@link #of(Collection)}
     *
     * @param protocols the protocols that are on
     */
    public static Protocols of(Protocol... protocols) {
        return of(Set.of(protocols));
    }

    /**
     * Parses a comma-separated list of ASMX's names ({@code "HttpSoap,HttpSoap12,Documentation"}),
     * case-insensitively, blanks around names ignored; an empty list means none.
     *
     * @param list the names, comma-separated
     * @return the protocols named
     * @throws IllegalArgumentException for an unknown name
     */
    public static Protocols parse(String list) {
        EnumSet<Protocol> set = EnumSet.noneOf(Protocol.class);
        for (String name : list.split(",", -1)) {
            if (!name.isBlank()) {
                set.add(Protocol.byName(name));
            }
        }
        return new Protocols(set);
    }

    /**
     * {@return whether {@code protocol} is on}
     *
     * @param protocol a protocol
     */
    public boolean contains(Protocol protocol) {
        return enabled.contains(protocol);
    }

    /** {@return whether either SOAP version is on} ASMX then installs its SOAP protocol factory. */
    public boolean anySoap() {
        return contains(Protocol.HTTP_SOAP) || contains(Protocol.HTTP_SOAP12);
    }

    /**
     * {@return this set, without {@code protocol}}
     *
     * @param protocol the protocol to leave out
     */
    public Protocols without(Protocol protocol) {
        EnumSet<Protocol> set = enabled.isEmpty() ? EnumSet.noneOf(Protocol.class) : EnumSet.copyOf(enabled);
        set.remove(protocol);
        return new Protocols(set);
    }

    /** {@return the protocols that are on, in ASMX's order} */
    public Set<Protocol> toSet() {
        return Collections.unmodifiableSet(enabled);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Protocols that && enabled.equals(that.enabled);
    }

    @Override
    public int hashCode() {
        return enabled.hashCode();
    }

    /** ASMX's names, comma-separated, in ASMX's order: what {@link #parse} reads back. */
    @Override
    public String toString() {
        return enabled.stream().map(Protocol::asmxName).collect(Collectors.joining(","));
    }
}
