package org.storeservice.examples.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;

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
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = new Main(new ByteArrayInputStream(stdin), out, new PrintStream(err, true, UTF_8),
                hook -> fail("a subcommand registered a shutdown hook")).run(args);
        return new ToolRun(status, out.toByteArray(), err.toString(UTF_8));
    }

    String outText() {
        return new String(out, UTF_8);
    }

    @Override
    public String toString() {
        return "status " + status + ", stderr:\n" + err;
    }
}
