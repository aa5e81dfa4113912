package org.storeservice.server;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.LoggerFactory;
import org.storeservice.api.StoreLimits;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.InvalidWsdlException;
import org.storeservice.codec.Protocols;
import org.storeservice.codec.StoreCodec;
import org.storeservice.jetty.StoreServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * Starts the server, prints its endpoint URL as the one line on standard output, and leaves it running. A shutdown
 * hook stops it gracefully on SIGTERM or Ctrl-C, then ends the process with status 0: the stop was asked for and
 * done, so a service manager must not count it as a failure (the JVM's own status would be 143 or 130).
 *
 * <p>Both the top command (no command named) and {@code serve} are one of these.
 */
@Command(name = "serve", mixinStandardHelpOptions = true, versionProvider = ServerVersion.class, showDefaultValues = true,
        header = "Serve the endpoint (the default command).",
        sortOptions = false, showEndOfOptionsDelimiterInUsageHelp = false,
        description = {"Serves the Store endpoint (SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST) until stopped with Ctrl-C"
                + " or SIGTERM, then exits with status 0. Prints the endpoint URL on one line once it listens."})
final class ServeCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    FrontDoorOptions frontDoor;

    @Mixin
    CommonOptions common;

    @Mixin
    OperationsOptions operations;

    @Mixin
    LogFormatOption logFormat;

    @Option(names = "--namespace", paramLabel = "URI", defaultValue = StoreCodec.DEFAULT_NAMESPACE,
            converter = Converters.NonEmpty.class,
            description = "The service's XML namespace. Env: STORE_NAMESPACE.")
    String namespace;

    @Option(names = "--max-request-bytes", paramLabel = "N", defaultValue = "" + CodecLimits.DEFAULT_MAX_REQUEST_BYTES,
            converter = Converters.ByteCount.class,
            description = "Largest request body accepted. Env: STORE_MAX_REQUEST_BYTES.")
    long maxRequestBytes;

    @Option(names = "--max-value-bytes", paramLabel = "N", defaultValue = "" + StoreLimits.DEFAULT_MAX_VALUE_BYTES,
            converter = Converters.ByteCount.class,
            description = "Largest value stored, UTF-8 bytes for text. Env: STORE_MAX_VALUE_BYTES.")
    long maxValueBytes;

    @Option(names = "--max-key-length", paramLabel = "N", defaultValue = "" + StoreLimits.DEFAULT_MAX_KEY_LENGTH,
            converter = Converters.KeyLength.class,
            description = "Longest key stored, in UTF-16 chars. Env: STORE_MAX_KEY_LENGTH.")
    int maxKeyLength;

    @Option(names = "--protocols", paramLabel = "LIST", defaultValue = "HttpSoap,HttpSoap12,HttpGet,HttpPost,HttpPostLocalhost,Documentation",
            converter = Converters.ProtocolList.class,
            description = "Protocols on, as web.config's <webServices><protocols>, comma-separated: HttpSoap, HttpSoap12,"
                    + " HttpGet, HttpPost, HttpPostLocalhost (form POSTs from this machine), Documentation (help pages,"
                    + " WSDL, disco). One left out answers as ASMX answers it removed. Env: STORE_PROTOCOLS.")
    Protocols protocols;

    @Option(names = "--wsdl", paramLabel = "FILE",
            description = "Serve this WSDL (UTF-8) on ?wsdl instead of the generated one, its port addresses rewritten"
                    + " to the address each client used; checked at start to describe this service. Env: STORE_WSDL.")
    Path wsdl;

    private final ToolContext context;
    private final PrintStream out;
    private final AtomicReference<StoreServer> serving;

    /**
     * @param out where the endpoint URL is printed
     * @param serving set to the server once it listens, so that {@link Main#main} leaves the process running
     */
    ServeCommand(ToolContext context, PrintStream out, AtomicReference<StoreServer> serving) {
        this.context = context;
        this.out = out;
        this.serving = serving;
    }

    /**
     * A server configured by these options.
     *
     * @throws IOException if the {@code --wsdl} file cannot be read
     */
    StoreServer.Builder serverBuilder() throws IOException {
        StoreServer.Builder builder = StoreServer.builder()
                .protocols(protocols)
                .wsdl(wsdl == null ? null : Files.readString(wsdl))
                .storageUri(common.storageUri)
                .namespace(namespace)
                .codecLimits(CodecLimits.builder().maxRequestBytes(maxRequestBytes).build())
                .storeLimits(StoreLimits.builder().maxValueBytes(maxValueBytes).maxKeyLength(maxKeyLength).build());
        frontDoor.listen(builder);
        return builder;
    }

    @Override
    public Integer call() {
        logFormat.apply();
        common.applyLogLevel(); // before the first logger: StoreServer's, created below
        operations.accessLogFormat = logFormat.format::accessLog;
        context.beforeOpening().accept(common.storageUri);
        StoreServer.Builder builder;
        try {
            builder = serverBuilder();
        } catch (IOException e) {
            message("--wsdl " + wsdl + ": cannot read it as UTF-8 text: " + Failures.describe(e));
            return Main.EXIT_FAILURE;
        }
        ServerMetrics metrics;
        try {
            frontDoor.tls(builder, context.environment());
            metrics = operations.apply(builder, frontDoor, context.out());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage().replaceAll("\\R", " "), e);
        } catch (IOException e) {
            message(Failures.describe(e));
            return Main.EXIT_FAILURE;
        }
        StoreServer server;
        try {
            server = builder.build().start();
        } catch (InvalidWsdlException e) {
            message("--wsdl " + wsdl + ": " + e.reason().replaceAll("\\R", " "));
            return Main.EXIT_FAILURE;
        } catch (IllegalArgumentException e) {
            // A value the parser could not judge alone: an unknown storage scheme, a malformed namespace.
            throw new ParameterException(spec.commandLine(), e.getMessage().replaceAll("\\R", " "), e);
        } catch (IllegalStateException e) {
            // Well-formed options this JVM cannot serve: a TLS version its security policy still disables.
            message(Failures.describe(e));
            closeIfAny(metrics);
            return Main.EXIT_FAILURE;
        } catch (IOException | RuntimeException e) {
            // Not a usage error: the options were well-formed, but the port, address or storage refused.
            String listening = Failures.listening(e);
            message(listening != null ? listening : "could not open the storage: " + Failures.describe(e));
            LoggerFactory.getLogger(ServeCommand.class).debug("Start failure", e);
            closeIfAny(metrics);
            return Main.EXIT_FAILURE;
        }
        serving.set(server);
        context.shutdownHooks().accept(new Thread(() -> {
            boolean clean = server.stop();
            if (metrics != null) {
                metrics.close();
            }
            // 0 after a clean stop, so that systemd records a stop it asked for as a success; requests cut off at
            // the stop timeout (logged) make it a failure an operator should see.
            context.halt().accept(clean ? Main.EXIT_OK : Main.EXIT_FAILURE);
        }, "store-server-shutdown"));
        // The one line on standard output: scripts and tests read the URL from it.
        out.println(server.endpointUri());
        out.flush();
        // Jetty's threads are not daemons: the JVM keeps serving after main returns, until the hook stops it.
        return Main.EXIT_OK;
    }

    private static void closeIfAny(ServerMetrics metrics) {
        if (metrics != null) {
            metrics.close();
        }
    }

    private void message(String message) {
        logFormat.error(context, ServeCommand.class, "store-server serve: " + message);
    }
}
