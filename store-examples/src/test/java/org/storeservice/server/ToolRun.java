package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Map;
import java.util.function.Consumer;

/** One in-process run of the tool with the given standard input: its status and what it wrote where. */
final class ToolRun {
    final int status;
    final byte[] out;
    final String err;

    private ToolRun(int status, byte[] out, String err) {
        this.status = status;
        this.out = out;
        this.err = err;
    }

    static ToolRun run(String... args) {
        return withInput(new byte[0], args);
    }

    static ToolRun withInput(String stdin, String... args) {
        return withInput(stdin.getBytes(UTF_8), args);
    }

    static ToolRun withInput(byte[] stdin, String... args) {
        return withEnvironment(stdin, Map.of(), args);
    }

    /** A run whose standard output is a terminal. */
    static ToolRun onTerminal(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        ToolContext pipe = context(InputStream.nullInputStream(), out, err, Map.of(), hook -> fail("a shutdown hook"));
        ToolContext terminal = new ToolContext(pipe.in(), pipe.out(), pipe.err(), pipe.environment(),
                pipe.shutdownHooks(), pipe.halt(), pipe.beforeOpening(), true);
        int status = new Main(terminal).run(args);
        return new ToolRun(status, out.toByteArray(), err.toString(UTF_8));
    }

    /** A run with {@code environment} as the process's environment variables. */
    static ToolRun withEnvironment(byte[] stdin, Map<String, String> environment, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = new Main(context(new ByteArrayInputStream(stdin), out, err, environment,
                hook -> fail("a subcommand registered a shutdown hook"))).run(args);
        return new ToolRun(status, out.toByteArray(), err.toString(UTF_8));
    }

    /**
     * An in-process context: no halting (a test JVM must live on; {@code halt} fails the test instead) and no
     * JVM-wide SQLite library properties.
     */
    static ToolContext context(InputStream in, OutputStream out, ByteArrayOutputStream err,
            Map<String, String> environment, Consumer<Thread> shutdownHooks) {
        return new ToolContext(in, out, new PrintStream(err, true, UTF_8), environment, shutdownHooks,
                status -> fail("halted with status " + status), uri -> { });
    }

    String outText() {
        return new String(out, UTF_8);
    }

    @Override
    public String toString() {
        return "status " + status + ", stderr:\n" + err;
    }
}
