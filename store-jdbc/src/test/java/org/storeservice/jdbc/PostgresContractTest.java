package org.storeservice.jdbc;

import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;
import org.storeservice.testkit.StorageContractTest;

/** The storage contract on a real PostgreSQL server (see {@link TestPostgres}), a table of its own per test. */
class PostgresContractTest extends StorageContractTest {
    @RegisterExtension
    static final TestPostgres postgres = new TestPostgres();
    private static final AtomicInteger tables = new AtomicInteger();
    private String uri;

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
