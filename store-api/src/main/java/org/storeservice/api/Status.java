package org.storeservice.api;

/**
 * The result of a write operation, exactly the two values of the wire contract's {@code Status} type.
 *
 * <p>Immutable and thread-safe.
 */
public enum Status {
    /** The value is stored. */
    SUCCESS("Success"),
    /** The write failed; nothing was stored and the previous value, if any, is unchanged. */
    ERROR("Error");

    private final String wireName;

    Status(String wireName) {
        this.wireName = wireName;
    }

    /** {@return the text this status has on the wire: {@code Success} or {@code Error}} */
    public String wireName() {
        return wireName;
    }

    /**
     * {@return the status whose wire text is exactly {@code wireName}} Case-sensitive, as XML enumerations are.
     *
     * @param wireName {@code Success} or {@code Error}
     * @throws IllegalArgumentException if {@code wireName} is neither {@code Success} nor {@code Error}
     */
    public static Status fromWireName(String wireName) {
        for (Status status : values()) {
            if (status.wireName.equals(wireName)) {
                return status;
            }
        }
        throw new IllegalArgumentException("Not a Status wire value: '" + wireName + "'; expected Success or Error");
    }
}
