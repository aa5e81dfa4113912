/**
 * Durable {@link org.storeservice.api.storage.Storage} backends over JDBC: one implementation,
 * {@link org.storeservice.jdbc.JdbcStorage}, with a small dialect each for SQLite ({@code sqlite:PATH})
 * and PostgreSQL ({@code jdbc:postgresql://...}), registered for {@link org.storeservice.api.storage.Storages}.
 */
package org.storeservice.jdbc;
