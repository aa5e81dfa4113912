package org.storeservice.server;

import java.util.Optional;

/**
 * One read of a key during a crash schedule, through a read-only connection of the test JVM to the server's
 * database: what it returned (empty: no entry), reduced to what the checker needs, and when it began and ended
 * ({@link System#nanoTime()}, taken before the query and after its result was read).
 */
record ClientRead(String key, Optional<ClientWrite.Observed> value, long startNanos, long endNanos) {
}
