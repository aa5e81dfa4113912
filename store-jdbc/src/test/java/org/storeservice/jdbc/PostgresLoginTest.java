package org.storeservice.jdbc;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.ServerSocket;
import java.sql.DriverManager;
import java.sql.SQLException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.storeservice.api.storage.StorageException;
import org.storeservice.api.storage.Storages;

/**
 * A misconfigured PostgreSQL storage fails to open with the driver's own reason, not after the pool's time-out with
 * only "Connection is not available, request timed out".
 */
class PostgresLoginTest {
    private static final String POOL_TIMEOUT_MESSAGE = "Connection is not available";
    /** Names a role whose password the test server checks. */
    static final String PASSWORD_ROLE_VARIABLE = "STORE_TEST_POSTGRES_PASSWORD_ROLE";

    @RegisterExtension
    static final TestPostgres postgres = new TestPostgres();

    private static StorageException openFails(String uri) {
        StorageException failure = assertThrows(StorageException.class, () -> Storages.open(uri).close());
        assertFalse(failure.getMessage().contains(POOL_TIMEOUT_MESSAGE), failure.getMessage());
        return failure;
    }

    /**
     * A role whose password the server checks: {@value #PASSWORD_ROLE_VARIABLE} names one ({@code .ci/run} creates
     * it, with a pg_hba.conf rule that requires its password); else {@code postgres}, if the server checks its
     * password. Where neither is so, the test is skipped, unless PostgreSQL is required, where it fails.
     */
    @Test
    void aWrongPasswordFailsWithTheServersReason() throws Exception {
        String role = System.getenv(PASSWORD_ROLE_VARIABLE);
        String uri = postgres.uriAs(role != null ? role : "postgres", "store-test-wrong-password", "login");
        boolean checksPasswords;
        try {
            DriverManager.getConnection(PostgresStorageConfig.fromUri(uri).jdbcUrl()).close();
            checksPasswords = false;
        } catch (SQLException expected) {
            checksPasswords = true;
        }
        String why = "The server at " + postgres.host() + " lets " + (role != null ? role : "postgres") + " in without"
                + " checking the password (pg_hba.conf 'trust'), so a wrong password cannot be tested there; set "
                + PASSWORD_ROLE_VARIABLE + " to a role whose password it checks (.ci/run makes one)";
        if ("true".equals(System.getenv(TestPostgres.REQUIRED_VARIABLE))) {
            assertTrue(checksPasswords, why);
        }
        Assumptions.assumeTrue(checksPasswords, why);
        StorageException failure = openFails(uri);
        assertTrue(failure.getMessage().contains("password authentication failed"), failure.getMessage());
    }

    /** The server's own FATAL for a login it refuses (here an unknown role), which every server sends, trust or not. */
    @Test
    void aRefusedLoginFailsWithTheServersReason() {
        StorageException failure = openFails(postgres.uriAs("store_test_no_such_role", "x", "login"));
        assertTrue(failure.getMessage().contains("FATAL"), failure.getMessage());
        assertTrue(failure.getMessage().contains("store_test_no_such_role"), failure.getMessage());
    }

    @Test
    void aClosedPortFailsWithConnectionRefused() throws Exception {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0)) {
            closedPort = socket.getLocalPort(); // free once closed: nothing listens there
        }
        StorageException failure = openFails(postgres.uriVia("127.0.0.1", closedPort, "login", ""));
        assertTrue(failure.getMessage().contains("refused"), failure.getMessage());
        assertTrue(failure.getMessage().contains("127.0.0.1:" + closedPort), failure.getMessage());
    }
}
