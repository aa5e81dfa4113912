package org.storeservice.jdbc;

/** The storage contract on SQLite with synchronous=NORMAL. */
class SqliteNormalContractTest extends SqliteFullContractTest {
    @Override
    protected Synchronous synchronous() {
        return Synchronous.NORMAL;
    }
}
