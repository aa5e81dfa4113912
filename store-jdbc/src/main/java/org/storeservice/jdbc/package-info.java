/**
 * Durable {@link org.storeservice.api.storage.Storage} backends over JDBC, the module's only exported package: one
 * implementation, {@link org.storeservice.jdbc.JdbcStorage}, opened on SQLite ({@code sqlite:PATH},
 * {@link org.storeservice.jdbc.SqliteStorageConfig}) or PostgreSQL ({@code jdbc:postgresql://...},
 * {@link org.storeservice.jdbc.PostgresStorageConfig}), registered for {@link org.storeservice.api.storage.Storages}.
 * Each engine's internals live in a package of its own that the module does not export.
 */
package org.storeservice.jdbc;
