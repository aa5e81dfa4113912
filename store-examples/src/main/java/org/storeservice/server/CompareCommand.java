package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.net.ConnectException;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.storeservice.codec.StoreCodec;
import org.storeservice.server.CaseExchange.Answer;
import org.storeservice.shadow.HostNormaliser;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code compare OLD_URL NEW_URL}: sends both endpoints the same requests ({@link CompareCases}), one endpoint then
 * the other for each, and prints a report ({@link CompareReport}); exit status 0 when every answer matches, 1 when
 * one differs or an endpoint cannot be reached. The write cases are sent only with {@code --include-writes
 * --key-prefix P}, and {@code --include-writes} is never read from the environment: nothing is written to a
 * production server that nobody asked to write to.
 */
@Command(name = "compare", mixinStandardHelpOptions = true, versionProvider = ServerVersion.class, showDefaultValues = true,
        header = "Send the old and the new endpoint the same requests; report how the answers differ.",
        sortOptions = false,
        description = {"Sends OLD_URL and NEW_URL (each an endpoint URL, .../Store.asmx) the same requests: the help,"
                + " operation, WSDL and disco pages, wrong verbs and paths, and every SOAP fault and HTTP GET/POST error"
                + " that stores nothing. Compares per request the status code, the headers Content-Type,"
                + " Cache-Control, Allow, WWW-Authenticate, Location and Content-Location, and the body byte for byte,"
                + " each URL's host replaced by a placeholder. Prints MATCH or DIFF a request, the differences, and a"
                + " summary; exits with status 0 if all match, 1 if not.",
                "With --include-writes --key-prefix P it also writes, on every binding, the keys P + the request's"
                + " name (write-soap11-string, ...) to both servers."})
final class CompareCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "OLD_URL", description = "The old server's endpoint URL (.../Store.asmx).")
    String oldUrl;

    @Parameters(index = "1", paramLabel = "NEW_URL", description = "The new server's endpoint URL.")
    String newUrl;

    @Option(names = "--include-writes",
            description = "Also send the write requests (WriteString and WriteBytes on each binding); needs --key-prefix."
                    + " Never read from the environment.")
    boolean includeWrites;

    @Option(names = "--key-prefix", paramLabel = "P", converter = Converters.NonEmpty.class,
            description = "With --include-writes, each write stores the key P + the request's name. Env: STORE_KEY_PREFIX.")
    String keyPrefix;

    @Option(names = "--namespace", paramLabel = "URI", defaultValue = StoreCodec.DEFAULT_NAMESPACE,
            converter = Converters.NonEmpty.class,
            description = "The service's XML namespace, as both servers have it. Env: STORE_NAMESPACE.")
    String namespace;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "10", converter = Converters.Seconds.class,
            description = "How long each request may take. Env: STORE_TIMEOUT.")
    Duration timeout;

    private final ToolContext context;

    CompareCommand(ToolContext context) {
        this.context = context;
    }

    @Override
    public Integer call() throws InterruptedException {
        URI oldEndpoint = endpoint(oldUrl, "OLD_URL");
        URI newEndpoint = endpoint(newUrl, "NEW_URL");
        if (includeWrites && keyPrefix == null) {
            throw new ParameterException(spec.commandLine(),
                    "--include-writes needs --key-prefix P: the writes store the keys P + each request's name");
        }
        List<CompareCase> cases = CompareCases.catalogue(namespace, includeWrites ? keyPrefix : null);
        CaseExchange exchange = new CaseExchange(timeout);
        ResponseDiffer differ = new ResponseDiffer(new HostNormaliser(oldEndpoint), new HostNormaliser(newEndpoint));
        CompareReport report = new CompareReport(new PrintWriter(new OutputStreamWriter(context.out(), UTF_8)));
        report.header(oldEndpoint, newEndpoint);
        for (CompareCase request : cases) {
            Answer old;
            Answer updated;
            try {
                old = send(exchange, oldEndpoint, request, "OLD_URL");
                updated = send(exchange, newEndpoint, request, "NEW_URL");
            } catch (ConnectException e) {
                context.err().println("store-server compare: " + e.getMessage());
                context.err().flush();
                return Main.EXIT_FAILURE;
            }
            report.result(request, differ.differences(old, updated));
        }
        report.finish();
        return report.allMatch() ? Main.EXIT_OK : Main.EXIT_FAILURE;
    }

    private static Answer send(CaseExchange exchange, URI endpoint, CompareCase request, String which)
            throws ConnectException, InterruptedException {
        try {
            return exchange.send(endpoint, request);
        } catch (ConnectException e) {
            String reason = e.getMessage() == null ? "connection refused" : e.getMessage();
            throw new ConnectException("cannot connect to " + which + " " + endpoint + " (" + reason + ")");
        }
    }

    /** {@code url} as an absolute http or https URL with a host, no query and no fragment; else a usage error. */
    private URI endpoint(String url, String label) {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            throw new ParameterException(spec.commandLine(), label + " is not a URL: " + e.getMessage());
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
            throw new ParameterException(spec.commandLine(), label + " must be an http:// or https:// URL with a host: " + url);
        }
        if (uri.getRawQuery() != null || uri.getRawFragment() != null || uri.getRawPath().isEmpty()) {
            throw new ParameterException(spec.commandLine(),
                    label + " must be the endpoint's URL, with a path and no query, e.g. http://host/API/Store.asmx: " + url);
        }
        return uri;
    }
}
