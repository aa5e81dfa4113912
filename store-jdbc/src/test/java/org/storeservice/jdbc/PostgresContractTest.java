package org.storeservice.jdbc;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;
import org.storeservice.testkit.StorageContractTest;

/** The storage contract on a real PostgreSQL server (see {@link TestPostgres}), a table of its own per test. */
class PostgresContractTest extends StorageContractTest {
    private static TestPostgres postgres;
    private static final AtomicInteger tables = new AtomicInteger();
    private String uri;

    @BeforeAll
    static void connect() {
        postgres = TestPostgres.connect();
    }

    @AfterAll
    static void dropSchema() throws Exception {
        if (postgres != null) {
            postgres.close();
        }
    }

    @Override
    protected Storage openStorage() throws Exception {
        uri = postgres.uri("contract_" + tables.incrementAndGet(), "poolSize=8");
        return Storages.open(uri); // through ServiceLoader, as a host would
    }

    @Override
    protected Optional<Storage> reopenStorage() throws Exception {
        return Optional.of(Storages.open(uri));
    }
}
