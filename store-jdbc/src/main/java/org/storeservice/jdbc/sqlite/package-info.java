/**
 * SQLite's engine, not exported: one writer thread owning the one write connection and committing batches
 * ({@link org.storeservice.jdbc.sqlite.GroupCommitWriter}), the readers beside it, the dialect. Entered through
 * {@link org.storeservice.jdbc.sqlite.SqliteEngine}.
 */
package org.storeservice.jdbc.sqlite;
