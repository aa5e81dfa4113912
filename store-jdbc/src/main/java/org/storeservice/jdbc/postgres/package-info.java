/**
 * PostgreSQL's engine, not exported: the lanes committing batches with their commit rows, failover ride-through and
 * in-doubt resolution ({@link org.storeservice.jdbc.postgres.PostgresWriter}), the pool, the dialect. Entered through
 * {@link org.storeservice.jdbc.postgres.PostgresEngine}.
 */
package org.storeservice.jdbc.postgres;
