/** The durable backends: SQLite ({@code sqlite:PATH}) and PostgreSQL ({@code jdbc:postgresql://...}). */
// pgjdbc has no module descriptor, only its Automatic-Module-Name; it is required so that the driver is resolved.
@SuppressWarnings("requires-automatic")
module org.storeservice.jdbc {
    requires transitive org.storeservice.api;
    requires java.sql;
    requires org.slf4j;
    requires org.xerial.sqlitejdbc;
    requires com.zaxxer.hikari;
    requires org.postgresql.jdbc;
    // The API only: org.storeservice.jdbc.internal, .sqlite and .postgres are this module's own.
    exports org.storeservice.jdbc;
    provides org.storeservice.api.storage.StorageProvider
            with org.storeservice.jdbc.SqliteStorageProvider, org.storeservice.jdbc.PostgresStorageProvider;
}
