package org.storeservice.api;

/**
 * What a write to a key that already holds a value does. The wire contract does not say; the default
 * is {@link #REPLACE}.
 */
public enum OverwritePolicy {
    /** The new value replaces the old one atomically: last write wins. */
    REPLACE,
    /** A write to an existing key gives {@link Status#ERROR} and leaves the stored value unchanged. */
    REJECT
}
