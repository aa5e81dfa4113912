package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.storeservice.jetty.StoreServer;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/** The server's options as picocli reads them: defaults, forms, environment variables, wrong values. */
class ServeOptionsTest {

    /** The serve options {@code args} give, read as by the tool with {@code environment}. */
    private static ServeCommand parse(Map<String, String> environment, String... args) {
        Main main = new Main(ToolRun.context(InputStream.nullInputStream(), new ByteArrayOutputStream(),
                new ByteArrayOutputStream(), environment, hook -> { }));
        main.commandLine().parseArgs(args);
        return main.commandLine().getCommand();
    }

    private static ServeCommand parse(String... args) {
        return parse(Map.of(), args);
    }

    @Test
    void defaultsServeTheEmbeddedSqliteFileOnLoopbackPort8080() {
        ServeCommand options = parse();

        assertEquals(8080, options.frontDoor.port);
        assertEquals("127.0.0.1", options.frontDoor.host);
        assertEquals(StoreServer.DEFAULT_ACCEPT_QUEUE_SIZE, options.frontDoor.acceptQueue);
        assertEquals("sqlite:data/store.db", options.common.storageUri);
        assertEquals("http://tempuri.org/", options.namespace);
        assertEquals(4L * 1024 * 1024, options.maxRequestBytes);
        assertEquals(4L * 1024 * 1024, options.maxValueBytes);
        assertEquals(512, options.maxKeyLength);
        assertEquals(StoreServer.DEFAULT_IDLE_TIMEOUT, options.frontDoor.idleTimeout);
        assertEquals(StoreServer.DEFAULT_STOP_TIMEOUT, options.frontDoor.stopTimeout);
        assertEquals(StoreServer.DEFAULT_DRAIN_TIME, options.frontDoor.drainTime);
        assertEquals(null, options.common.logLevel);
    }

    @Test
    void takesValuesAsTheNextArgumentOrAfterEquals() {
        ServeCommand options = parse("--port", "0", "--host=0.0.0.0", "--accept-queue", "511", "--storage", "files:data",
                "--namespace=urn:x", "--max-request-bytes", "1000", "--max-value-bytes=2000", "--max-key-length", "30",
                "--idle-timeout", "0.5", "--stop-timeout=2", "--log-level", "DEBUG");

        assertEquals(0, options.frontDoor.port);
        assertEquals("0.0.0.0", options.frontDoor.host);
        assertEquals(511, options.frontDoor.acceptQueue);
        assertEquals("files:data", options.common.storageUri);
        assertEquals("urn:x", options.namespace);
        assertEquals(1000, options.maxRequestBytes);
        assertEquals(2000, options.maxValueBytes);
        assertEquals(30, options.maxKeyLength);
        assertEquals(Duration.ofMillis(500), options.frontDoor.idleTimeout);
        assertEquals(Duration.ofSeconds(2), options.frontDoor.stopTimeout);
        assertEquals(LogLevel.DEBUG, options.common.logLevel);
    }

    @Test
    void aValueMayContainEqualsSignsAndTheLastOfARepeatedOptionWins() {
        assertEquals("files:a=b", parse("--storage=files:a=b").common.storageUri);
        assertEquals(2, parse("--port", "1", "--port", "2").frontDoor.port);
        assertEquals("TLSv1,TLSv1.2", parse("--tls-protocols", "TLSv1.3", "--tls-protocols=TLSv1,TLSv1.2").frontDoor.tlsProtocols);
    }

    @Test
    void everyOptionComesFromItsEnvironmentVariableUnlessTheCommandLineGivesIt() {
        Map<String, String> environment = Map.of("STORE_PORT", "9", "STORE_HOST", "0.0.0.0", "STORE_STORAGE", "memory:",
                "STORE_NAMESPACE", "urn:env", "STORE_MAX_REQUEST_BYTES", "11", "STORE_MAX_VALUE_BYTES", "12",
                "STORE_MAX_KEY_LENGTH", "13", "STORE_IDLE_TIMEOUT", "14", "STORE_STOP_TIMEOUT", "15",
                "STORE_LOG_LEVEL", "warn");

        ServeCommand options = parse(environment);
        assertEquals(9, options.frontDoor.port);
        assertEquals("0.0.0.0", options.frontDoor.host);
        assertEquals("memory:", options.common.storageUri);
        assertEquals("urn:env", options.namespace);
        assertEquals(11, options.maxRequestBytes);
        assertEquals(12, options.maxValueBytes);
        assertEquals(13, options.maxKeyLength);
        assertEquals(Duration.ofSeconds(14), options.frontDoor.idleTimeout);
        assertEquals(Duration.ofSeconds(15), options.frontDoor.stopTimeout);
        assertEquals(LogLevel.WARN, options.common.logLevel);
        assertEquals(1024, parse(Map.of("STORE_ACCEPT_QUEUE", "1024")).frontDoor.acceptQueue);

        assertEquals(7, parse(environment, "--port", "7").frontDoor.port, "the command line wins");
        assertEquals(8080, parse(Map.of("STORE_PORT", "")).frontDoor.port, "an empty variable counts as unset");
    }

    @Test
    void aWrongValueFromTheEnvironmentIsAUsageError() {
        ToolRun run = ToolRun.withEnvironment(new byte[0], Map.of("STORE_PORT", "eighty"), "--port", "0", "--help");
        assertEquals(Main.EXIT_OK, run.status, "the command line's value wins over a wrong variable");

        run = ToolRun.withEnvironment(new byte[0], Map.of("STORE_PORT", "eighty"), "--storage", "memory:");
        assertEquals(Main.EXIT_USAGE, run.status, run.toString());
        assertTrue(run.err.startsWith("store-server: Invalid value for option '--port': not a whole number: eighty"), run.err);
    }

    @Test
    void everyOptionsHelpNamesItsVariableAndNoOtherOptionReadsOne() {
        CommandLine top = new Main(ToolRun.context(InputStream.nullInputStream(), new ByteArrayOutputStream(),
                new ByteArrayOutputStream(), Map.of(), hook -> { })).commandLine();
        List<CommandLine> commands = new ArrayList<>(List.of(top));
        commands.addAll(top.getSubcommands().values());
        for (CommandLine command : commands) {
            for (OptionSpec option : command.getCommandSpec().options()) {
                String where = command.getCommandName() + " " + option.longestName();
                String description = String.join(" ", option.description());
                if (option.usageHelp() || option.versionHelp()) {
                    assertTrue(!EnvironmentDefaults.readsEnvironment(option), where);
                } else if (EnvironmentDefaults.readsEnvironment(option)) {
                    assertTrue(description.contains("Env: " + EnvironmentDefaults.variable(option) + "."), where + ": " + description);
                } else {
                    assertTrue(description.contains("Never read from the environment."), where + ": " + description);
                }
            }
        }
        assertEquals("STORE_MAX_REQUEST_BYTES", EnvironmentDefaults.variable(top.getCommandSpec().findOption("--max-request-bytes")));
    }

    @Test
    void wrongCommandLinesSayWhatIsWrongInOneLine() {
        assertMessage("Unknown option: '--bogus'", "--bogus");
        assertMessage("Unknown options: '--prot', '8081'; did you mean --port?", "--prot", "8081");
        assertMessage("Unknown option: '--managment-port=9'; did you mean --management-port?", "--managment-port=9");
        assertMessage("Missing required parameter for option '--port' (N)", "--port");
        assertMessage("Invalid value for option '--port': not a whole number: eighty", "--port", "eighty");
        assertMessage("Invalid value for option '--port': 65536 is outside 0..65535", "--port", "65536");
        assertMessage("Invalid value for option '--accept-queue': 0 is outside 1..65535", "--accept-queue", "0");
        assertMessage("Invalid value for option '--max-request-bytes': -1 is outside 0..9223372036854775807",
                "--max-request-bytes", "-1");
        assertMessage("Invalid value for option '--max-key-length': 0 is outside 1..2147483647", "--max-key-length", "0");
        assertMessage("Invalid value for option '--idle-timeout': not a number of seconds: soon", "--idle-timeout", "soon");
        assertMessage("Invalid value for option '--stop-timeout': 0 is outside 0.001..31536000 seconds", "--stop-timeout", "0");
        assertMessage("Invalid value for option '--storage': needs a non-empty value", "--storage=");
        assertMessage("Invalid value for option '--log-level': loud is none of trace, debug, info, warn, error, off",
                "--log-level", "loud");
        assertMessage("unknown command 'serve-me'; the commands are serve, get, list, export, import, backup, delete, compare, diff, shadow, shadow-report, users", "serve-me");
    }

    @Test
    void anOptionsValueNamedLikeACommandIsTheValueNotTheCommand() {
        ServeCommand options = parse("--users-file", "users", "--access-log", "list");

        assertEquals(Path.of("users"), options.operations.usersFile);
        assertEquals("list", options.operations.accessLog);
    }

    @Test
    void theOptionsConfigureTheServer() throws Exception {
        var server = parse("--port", "0", "--storage", "memory:").serverBuilder().build().start();
        try {
            assertTrue(server.port() > 0);
            assertEquals("127.0.0.1", server.endpointUri().getHost());
        } finally {
            server.stop();
        }
    }

    @Test
    void raisedLimitsLetALargerValueThrough() throws Exception {
        byte[] content = new byte[5 * 1024 * 1024];
        String base64 = Base64.getEncoder().encodeToString(content);
        String body = "<soap:Envelope xmlns:soap=\"http://schemas.xmlsoap.org/soap/envelope/\"><soap:Body>"
                + "<WriteBytes xmlns=\"http://tempuri.org/\"><key>big</key><content>" + base64
                + "</content></WriteBytes></soap:Body></soap:Envelope>";
        assertEquals("Error", writeBytesResult(List.of("--max-request-bytes", "8000000"), body));
        assertEquals("Success", writeBytesResult(
                List.of("--max-request-bytes", "8000000", "--max-value-bytes", "6000000"), body));
    }

    /** The WriteBytesResult a server with {@code limitOptions} (on memory storage) answers to {@code body}. */
    private static String writeBytesResult(List<String> limitOptions, String body) throws Exception {
        List<String> args = new ArrayList<>(List.of("--port", "0", "--storage", "memory:"));
        args.addAll(limitOptions);
        var server = parse(args.toArray(String[]::new)).serverBuilder().build().start();
        try {
            var response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(server.endpointUri())
                            .header("Content-Type", "text/xml; charset=utf-8")
                            .header("SOAPAction", "\"http://tempuri.org/WriteBytes\"")
                            .POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
            return response.body().replaceAll(".*<WriteBytesResult>(\\w+)</WriteBytesResult>.*", "$1");
        } finally {
            server.stop();
        }
    }

    private static void assertMessage(String message, String... args) {
        ToolRun run = ToolRun.run(args);
        assertEquals(Main.EXIT_USAGE, run.status, run.toString());
        assertEquals("store-server: " + message, run.err.split("\\R")[0]);
        assertEquals(0, run.out.length);
        assertEquals("Try 'java -jar store-server.jar --help' for more information.", run.err.split("\\R")[1]);
    }
}
