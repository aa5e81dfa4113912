package org.storeservice.shadow;

/**
 * One way two answers differ.
 *
 * @param kind what differs, as accept rules name it: {@code status}, {@code header:NAME}, {@code line-endings},
 *     {@code fault-text}, {@code body}, or {@code outcome} (a write answered otherwise, which no rule accepts)
 * @param cause what differs in words without sizes or offsets: the same for every answer that differs for this reason,
 *     so that differences group by it
 * @param detail where and how, with an excerpt of each side, for a person to read
 */
record Difference(String kind, String cause, String detail) {
    /** The kind no rule may accept: a write answered Success by one service and otherwise by the other. */
    static final String OUTCOME = "outcome";
}
