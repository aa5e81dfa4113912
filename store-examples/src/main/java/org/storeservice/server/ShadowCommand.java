package org.storeservice.server;

import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.List;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.LoggerFactory;
import org.storeservice.codec.StoreCodec;
import org.storeservice.jetty.StoreServer;
import org.storeservice.shadow.ShadowProxy;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

/**
 * {@code shadow --primary URL --shadow URL}: runs a {@link ShadowProxy} until stopped with Ctrl-C or SIGTERM, printing
 * its endpoint URL on one line once it listens, as {@code serve} does. Every request goes to the primary, whose answer
 * the client gets; a copy of each request at the endpoint goes to the shadow, and the answers are compared.
 */
@Command(name = "shadow", mixinStandardHelpOptions = true, versionProvider = ServerVersion.class, showDefaultValues = true,
        header = "Send every request to the primary and a copy to the shadow; compare their answers.",
        sortOptions = false,
        description = {"Listens on --port and sends every request to the primary (--primary, an endpoint URL), answering"
                + " the client with the primary's answer, status line, headers and body as sent. Each request at the"
                + " endpoint is then copied to the shadow (--shadow), never delaying the client, and the two answers are"
                + " compared as compare compares them. Writes of one key go to both one at a time, in the same order, so"
                + " both stores stay in step; the key of a write whose copy was dropped is listed (--dropped-keys).",
                "Runs until Ctrl-C or SIGTERM, then exits with status 0. Prints its endpoint URL on one line once it listens."})
final class ShadowCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Mixin
    FrontDoorOptions frontDoor;

    @Option(names = "--primary", paramLabel = "URL", converter = Endpoint.class,
            description = "The primary's endpoint URL (http://old-host/API/Store.asmx): every request goes there, and the"
                    + " client gets its answer. Required. Env: STORE_PRIMARY.")
    URI primary;

    @Option(names = "--shadow", paramLabel = "URL", converter = Endpoint.class,
            description = "The shadow's endpoint URL: the copies go there. Required. Env: STORE_SHADOW.")
    URI shadow;

    @Option(names = "--differences", paramLabel = "FILE",
            description = "Append each difference, one JSON line, to FILE (rotated by size); else to the log."
                    + " Env: STORE_DIFFERENCES.")
    Path differences;

    @Option(names = "--differences-max-bytes", paramLabel = "N", defaultValue = "" + ShadowProxy.DEFAULT_DIFFERENCES_MAX_BYTES,
            converter = Converters.ByteCount.class,
            description = "Rotate the differences file once it would pass this size. Env: STORE_DIFFERENCES_MAX_BYTES.")
    long differencesMaxBytes;

    @Option(names = "--differences-files", paramLabel = "N", defaultValue = "" + ShadowProxy.DEFAULT_DIFFERENCES_FILES,
            converter = Count.class,
            description = "Rotated differences files kept, FILE.1 (newest) to FILE.N; 0 for none."
                    + " Env: STORE_DIFFERENCES_FILES.")
    int differencesFiles;

    @Option(names = "--dropped-keys", paramLabel = "FILE",
            description = "Append the key of each write the shadow may lack (its copy dropped or unanswered), one JSON"
                    + " line, to FILE; else to the log. Env: STORE_DROPPED_KEYS.")
    Path droppedKeys;

    @Option(names = "--accept", paramLabel = "FILE", split = ",", description = "Rules of the understood differences,"
            + " one a line: BINDING OPERATION WHAT REASON; a difference they match is counted accepted. Repeatable"
            + " (or FILE,FILE): every file's rules apply. Env: STORE_ACCEPT.")
    List<Path> accept = List.of();

    @Option(names = "--max-request-bytes", paramLabel = "N", defaultValue = "" + ShadowProxy.DEFAULT_MAX_BODY_BYTES,
            converter = Converters.ByteCount.class,
            description = "Largest request body copied and mirrored; a larger one streams to the primary only. At least"
                    + " both services' own limit. Env: STORE_MAX_REQUEST_BYTES.")
    long maxRequestBytes;

    @Option(names = "--shadow-queue-bytes", paramLabel = "N", defaultValue = "" + ShadowProxy.DEFAULT_QUEUE_BYTES,
            converter = Converters.ByteCount.class,
            description = "Most the copies waiting for the shadow may hold together; a copy that does not fit is"
                    + " dropped and its key listed. Env: STORE_SHADOW_QUEUE_BYTES.")
    long shadowQueueBytes;

    @Option(names = "--shadow-concurrency", paramLabel = "N", defaultValue = "" + ShadowProxy.DEFAULT_SHADOW_CONCURRENCY,
            converter = Positive.class,
            description = "Copies sent to the shadow at once. Env: STORE_SHADOW_CONCURRENCY.")
    int shadowConcurrency;

    @Option(names = "--shadow-timeout", paramLabel = "SECONDS", defaultValue = "30", converter = Converters.Seconds.class,
            description = "How long the shadow has to answer a copy. Env: STORE_SHADOW_TIMEOUT.")
    Duration shadowTimeout;

    @Option(names = "--primary-timeout", paramLabel = "SECONDS", defaultValue = "120", converter = Converters.Seconds.class,
            description = "How long the primary may be silent during an exchange before the client gets 504."
                    + " Env: STORE_PRIMARY_TIMEOUT.")
    Duration primaryTimeout;

    @Option(names = "--namespace", paramLabel = "URI", defaultValue = StoreCodec.DEFAULT_NAMESPACE,
            converter = Converters.NonEmpty.class,
            description = "The service's XML namespace, as both services have it: to read the keys of SOAP writes."
                    + " Env: STORE_NAMESPACE.")
    String namespace;

    @Option(names = "--log-level", paramLabel = "LEVEL", converter = Converters.Level.class,
            description = "Log level: trace, debug, info, warn, error or off (default info; Jetty logs warnings only)."
                    + " Env: STORE_LOG_LEVEL.")
    LogLevel logLevel;

    @Mixin
    LogFormatOption logFormat;

    private final ToolContext context;
    private final PrintStream out;
    private final AtomicReference<ShadowProxy> running;

    /**
     * @param out where the endpoint URL is printed
     * @param running set to the proxy once it listens, so that {@link Main#main} leaves the process running
     */
    ShadowCommand(ToolContext context, PrintStream out, AtomicReference<ShadowProxy> running) {
        this.context = context;
        this.out = out;
        this.running = running;
    }

    /** A proxy configured by these options (metrics aside). */
    ShadowProxy.Builder proxyBuilder() {
        if (primary == null || shadow == null) {
            throw new ParameterException(spec.commandLine(),
                    "--primary and --shadow are required (or STORE_PRIMARY and STORE_SHADOW)");
        }
        ShadowProxy.Builder builder = ShadowProxy.builder()
                .primary(primary)
                .shadow(shadow)
                .namespace(namespace)
                .maxBodyBytes(maxRequestBytes)
                .queueBytes(shadowQueueBytes)
                .shadowConcurrency(shadowConcurrency)
                .shadowTimeout(shadowTimeout)
                .primaryTimeout(primaryTimeout)
                .differencesMaxBytes(differencesMaxBytes)
                .differencesFiles(differencesFiles);
        if (differences != null) {
            builder.differences(differences);
        }
        if (droppedKeys != null) {
            builder.droppedKeys(droppedKeys);
        }
        accept.forEach(builder::accept);
        frontDoor.listen(builder);
        return builder;
    }

    @Override
    public Integer call() {
        logFormat.apply();
        if (logLevel != null) {
            logLevel.apply();
        }
        ShadowProxy.Builder builder;
        try {
            builder = proxyBuilder();
            frontDoor.tls(builder, context.environment());
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage().replaceAll("\\R", " "), e);
        } catch (IOException e) {
            message(Failures.describe(e));
            return Main.EXIT_FAILURE;
        }
        if (maxRequestBytes > shadowQueueBytes) {
            LoggerFactory.getLogger(ShadowCommand.class).warn("--shadow-queue-bytes ({}) is below --max-request-bytes ({}):"
                    + " a copy larger than the queue is always dropped", shadowQueueBytes, maxRequestBytes);
        }
        ShadowMetrics metrics = null;
        if (frontDoor.managementPort != null) {
            metrics = new ShadowMetrics();
            builder.observer(metrics).managementHandler(metrics.handler(frontDoor.metricsPath))
                    .tlsVersionRefusals(metrics.tlsRefusals());
        }
        ShadowProxy proxy;
        try {
            proxy = builder.build().start();
        } catch (IOException | RuntimeException e) {
            String listening = Failures.listening(e);
            message(listening != null ? listening : "could not start: " + Failures.describe(e));
            LoggerFactory.getLogger(ShadowCommand.class).debug("Start failure", e);
            if (metrics != null) {
                metrics.close();
            }
            return Main.EXIT_FAILURE;
        }
        if (metrics != null) {
            metrics.watchQueue(proxy);
        }
        running.set(proxy);
        ShadowMetrics started = metrics;
        context.shutdownHooks().accept(new Thread(() -> {
            boolean clean = proxy.stop();
            if (started != null) {
                started.close();
            }
            context.halt().accept(clean ? Main.EXIT_OK : Main.EXIT_FAILURE);
        }, "store-server-shutdown"));
        out.println(proxy.endpointUri());
        out.flush();
        return Main.EXIT_OK;
    }

    private void message(String message) {
        logFormat.error(context, ShadowCommand.class, "store-server shadow: " + message);
    }

    /** An endpoint URL: absolute http or https, with a host and a path, no query. */
    static final class Endpoint implements ITypeConverter<URI> {
        @Override
        public URI convert(String value) {
            URI uri;
            try {
                uri = new URI(value.strip());
            } catch (URISyntaxException e) {
                throw new TypeConversionException("not a URL: " + e.getMessage());
            }
            String scheme = uri.getScheme() == null ? "" : uri.getScheme();
            if (!scheme.equalsIgnoreCase("http") && !scheme.equalsIgnoreCase("https") || uri.getHost() == null
                    || uri.getRawPath() == null || uri.getRawPath().length() < 2 || uri.getRawQuery() != null) {
                throw new TypeConversionException("not an endpoint URL like http://host/API/Store.asmx: " + value);
            }
            return uri;
        }
    }

    /** A count from 0. */
    static final class Count implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return count(value, 0);
        }
    }

    /** A count from 1. */
    static final class Positive implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return count(value, 1);
        }
    }

    private static int count(String value, int min) {
        int count;
        try {
            count = Integer.parseInt(value.strip());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("not a whole number: " + value);
        }
        if (count < min) {
            throw new TypeConversionException(value + " is outside " + min + ".." + Integer.MAX_VALUE);
        }
        return count;
    }
}
