package org.storeservice.examples.server;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.storeservice.api.StoreLimits;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.StoreCodec;
import org.storeservice.jetty.StoreServer;

/**
 * The server's command-line options, parsed and checked. Options take their value either as the next
 * argument ({@code --port 8080}) or after {@code =} ({@code --port=8080}); a repeated option's last value wins.
 *
 * <p>Immutable.
 */
final class ServerOptions {
    /**
     * Where entries are kept unless {@code --storage} says otherwise: the embedded SQLite database
     * {@code data/store.db} under the working directory (created with its directory on first use), with
     * {@code synchronous=FULL}, so a {@code Success} survives a crash or a power cut. The one place the default
     * lives: the subcommands that share {@code --storage} use it too.
     */
    static final String DEFAULT_STORAGE_URI = "sqlite:data/store.db";

    static final String USAGE = String.join(System.lineSeparator(),
            "Usage: java -jar store-server.jar [serve] [options]",
            "       java -jar store-server.jar get|list|export|import [--storage URI] ...",
            "Serves the Store endpoint (SOAP 1.1, SOAP 1.2, HTTP GET, HTTP POST) until stopped with Ctrl-C or SIGTERM.",
            "Prints the endpoint URL on one line once it listens.",
            "",
            "Commands (COMMAND --help for each one's usage):",
            "  serve                    serve the endpoint (the default)",
            "  get KEY                  print the value stored under KEY",
            "  list [--prefix P]        print the keys, one a line",
            "  export                   print every entry as JSON Lines",
            "  import                   write every entry read as JSON Lines from standard input",
            "",
            "Options:",
            "  --port N                 port to listen on, 0 for any free port (default " + StoreServer.DEFAULT_PORT + ")",
            "  --host ADDRESS           address to listen on, 0.0.0.0 for every interface (default " + StoreServer.DEFAULT_HOST + ")",
            "  --storage URI            where entries are kept: sqlite:FILE, jdbc:postgresql://HOST/DB?..., memory:",
            "                           or files:DIR (default " + DEFAULT_STORAGE_URI + ")",
            "  --namespace URI          the service's XML namespace (default " + StoreCodec.DEFAULT_NAMESPACE + ")",
            "  --max-request-bytes N    largest request body accepted (default " + CodecLimits.DEFAULT_MAX_REQUEST_BYTES + ")",
            "  --max-value-bytes N      largest value stored, UTF-8 bytes for text (default "
                    + StoreLimits.DEFAULT_MAX_VALUE_BYTES + ")",
            "  --max-key-length N       longest key stored, in UTF-16 chars (default " + StoreLimits.DEFAULT_MAX_KEY_LENGTH + ")",
            "  --idle-timeout SECONDS   close a connection silent for this long (default "
                    + StoreServer.DEFAULT_IDLE_TIMEOUT.toSeconds() + ")",
            "  --stop-timeout SECONDS   on stop, wait this long for requests in flight (default "
                    + StoreServer.DEFAULT_STOP_TIMEOUT.toSeconds() + ")",
            "  --help                   print this help and exit",
            "");

    private static final Set<String> VALUED_OPTIONS = Set.of("--port", "--host", "--storage", "--namespace",
            "--max-request-bytes", "--max-value-bytes", "--max-key-length", "--idle-timeout", "--stop-timeout");

    private int port = StoreServer.DEFAULT_PORT;
    private String host = StoreServer.DEFAULT_HOST;
    private String storageUri = DEFAULT_STORAGE_URI;
    private String namespace = StoreCodec.DEFAULT_NAMESPACE;
    private long maxRequestBytes = CodecLimits.DEFAULT_MAX_REQUEST_BYTES;
    private long maxValueBytes = StoreLimits.DEFAULT_MAX_VALUE_BYTES;
    private int maxKeyLength = StoreLimits.DEFAULT_MAX_KEY_LENGTH;
    private Duration idleTimeout = StoreServer.DEFAULT_IDLE_TIMEOUT;
    private Duration stopTimeout = StoreServer.DEFAULT_STOP_TIMEOUT;
    private boolean help;

    private ServerOptions() {
    }

    /**
     * The options {@code args} give.
     *
     * @throws UsageException naming the first unknown option, missing value or bad value
     */
    static ServerOptions parse(List<String> args) throws UsageException {
        ServerOptions options = new ServerOptions();
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (!arg.startsWith("--")) {
                throw new UsageException("unexpected argument: " + arg);
            }
            int equals = arg.indexOf('=');
            String name = equals < 0 ? arg : arg.substring(0, equals);
            if (name.equals("--help")) {
                options.help = true;
                continue;
            }
            if (!VALUED_OPTIONS.contains(name)) {
                throw new UsageException("unknown option: " + name);
            }
            String value;
            if (equals >= 0) {
                value = arg.substring(equals + 1);
            } else if (i + 1 < args.size()) {
                value = args.get(++i);
            } else {
                throw new UsageException("option " + name + " needs a value");
            }
            options.set(name, value);
        }
        return options;
    }

    private void set(String name, String value) throws UsageException {
        switch (name) {
            case "--port":
                port = (int) number(name, value, 0, 65535);
                break;
            case "--host":
                host = nonEmpty(name, value);
                break;
            case "--storage":
                storageUri = nonEmpty(name, value);
                break;
            case "--namespace":
                namespace = nonEmpty(name, value);
                break;
            case "--max-request-bytes":
                maxRequestBytes = number(name, value, 0, Long.MAX_VALUE);
                break;
            case "--max-value-bytes":
                maxValueBytes = number(name, value, 0, Long.MAX_VALUE);
                break;
            case "--max-key-length":
                maxKeyLength = (int) number(name, value, 1, Integer.MAX_VALUE);
                break;
            case "--idle-timeout":
                idleTimeout = seconds(name, value);
                break;
            case "--stop-timeout":
                stopTimeout = seconds(name, value);
                break;
            default:
                throw new IllegalStateException("option listed but not handled: " + name);
        }
    }

    /** Whether {@code --help} was given. */
    boolean help() {
        return help;
    }

    int port() {
        return port;
    }

    String host() {
        return host;
    }

    String storageUri() {
        return storageUri;
    }

    String namespace() {
        return namespace;
    }

    long maxRequestBytes() {
        return maxRequestBytes;
    }

    StoreLimits storeLimits() {
        return StoreLimits.builder().maxValueBytes(maxValueBytes).maxKeyLength(maxKeyLength).build();
    }

    Duration idleTimeout() {
        return idleTimeout;
    }

    Duration stopTimeout() {
        return stopTimeout;
    }

    /** A server configured by these options. */
    StoreServer.Builder serverBuilder() {
        return StoreServer.builder()
                .port(port)
                .host(host)
                .storageUri(storageUri)
                .namespace(namespace)
                .codecLimits(CodecLimits.builder().maxRequestBytes(maxRequestBytes).build())
                .storeLimits(storeLimits())
                .idleTimeout(idleTimeout)
                .stopTimeout(stopTimeout);
    }

    private static String nonEmpty(String name, String value) throws UsageException {
        if (value.isBlank()) {
            throw new UsageException("option " + name + " needs a non-empty value");
        }
        return value;
    }

    private static long number(String name, String value, long min, long max) throws UsageException {
        long number;
        try {
            number = Long.parseLong(value);
        } catch (NumberFormatException e) {
            throw new UsageException(name + ": not a whole number: " + value);
        }
        if (number < min || number > max) {
            throw new UsageException(name + ": " + value + " is outside " + min + ".." + max);
        }
        return number;
    }

    private static Duration seconds(String name, String value) throws UsageException {
        BigDecimal seconds;
        try {
            seconds = new BigDecimal(value);
        } catch (NumberFormatException e) {
            throw new UsageException(name + ": not a number of seconds: " + value);
        }
        // Bounded well inside Duration's range, and at least a millisecond, which Jetty's timers resolve.
        if (seconds.compareTo(new BigDecimal("0.001")) < 0 || seconds.compareTo(BigDecimal.valueOf(86_400L * 365)) > 0) {
            throw new UsageException(name + ": " + value + " is outside 0.001..31536000 seconds");
        }
        return Duration.ofNanos(seconds.movePointRight(9).longValue());
    }
}
