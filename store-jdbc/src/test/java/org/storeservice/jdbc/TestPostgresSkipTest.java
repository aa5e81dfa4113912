package org.storeservice.jdbc;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/** Without a server, each test class that needs one says in the output why it was skipped, once. */
class TestPostgresSkipTest {
    /** Two test classes that need PostgreSQL. */
    static final class FirstNeedingPostgres {
    }

    static final class SecondNeedingPostgres {
    }

    @Test
    void eachSkippedClassSaysWhyOnceInTheOutput() {
        ByteArrayOutputStream said = new ByteArrayOutputStream();
        TestPostgres none = new TestPostgres(null, false, new PrintStream(said, true, UTF_8));
        assertThrows(TestAbortedException.class, () -> none.createSchema(FirstNeedingPostgres.class));
        assertThrows(TestAbortedException.class, () -> none.createSchema(FirstNeedingPostgres.class));
        assertThrows(TestAbortedException.class, () -> none.createSchema(SecondNeedingPostgres.class));
        String why = ": PostgreSQL tests skipped: no server named; to run them set STORE_TEST_POSTGRES_URL="
                + TestPostgres.EXAMPLE_URL;
        assertEquals("FirstNeedingPostgres" + why + "\nSecondNeedingPostgres" + why + "\n", said.toString(UTF_8));
    }

    @Test
    void requiredItFailsInsteadOfSkipping() {
        TestPostgres none = new TestPostgres(null, true, new PrintStream(new ByteArrayOutputStream(), true, UTF_8));
        assertThrows(AssertionFailedError.class, () -> none.createSchema(FirstNeedingPostgres.class));
    }
}
