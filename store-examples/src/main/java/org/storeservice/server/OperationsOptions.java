package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.util.function.UnaryOperator;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.server.RequestLogWriter;
import org.storeservice.jetty.AddressRanges;
import org.storeservice.jetty.BasicUsers;
import org.storeservice.jetty.StoreServer;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The server's own operating options, each off unless given: the access log, Basic authentication and the client
 * allow-list. Those it shares with the shadow proxy (the management port, HTTPS, trusted proxies) are
 * {@link FrontDoorOptions}.
 */
final class OperationsOptions {
    @Option(names = "--access-log", paramLabel = "FILE",
            description = "Write an access log (extended NCSA, plus binding and operation) to FILE, appending;"
                    + " - for standard output. Off unless given. Env: STORE_ACCESS_LOG.")
    String accessLog;

    @Option(names = "--users-file", paramLabel = "FILE",
            description = "Require HTTP Basic authentication as a user of this file (see the users add command)."
                    + " Env: STORE_USERS_FILE.")
    Path usersFile;

    @Option(names = "--public-metadata", paramLabel = "BOOLEAN", defaultValue = "false", arity = "0..1",
            description = "With --users-file: serve the WSDL, disco and help pages without credentials."
                    + " Env: STORE_PUBLIC_METADATA.")
    boolean publicMetadata;

    @Option(names = "--allow-from", paramLabel = "CIDR[,CIDR...]", converter = Ranges.class,
            description = "Serve only clients in these address ranges; others get 403. Env: STORE_ALLOW_FROM.")
    AddressRanges allowFrom;


    /** Writes each access log line in the format of {@code --log-format} (set by the command). */
    UnaryOperator<RequestLog.Writer> accessLogFormat = UnaryOperator.identity();

    /**
     * Sets these options on {@code builder}, and the metrics when {@code frontDoor} has a management port.
     *
     * @param out standard output, for {@code --access-log -}
     * @return the metrics to close once the server stopped, or {@code null} without a management port
     * @throws IllegalArgumentException for a combination that cannot work (said in the message)
     * @throws IOException if the users file cannot be read
     */
    ServerMetrics apply(StoreServer.Builder builder, FrontDoorOptions frontDoor, OutputStream out) throws IOException {
        if (accessLog != null) {
            RequestLog.Writer writer = accessLog.equals("-") ? standardOutput(out) : fileWriter(accessLog);
            builder.accessLog(accessLogFormat.apply(writer));
        }
        if (usersFile != null) {
            builder.users(BasicUsers.load(usersFile)).publicMetadata(publicMetadata);
        } else if (publicMetadata) {
            throw new IllegalArgumentException("--public-metadata needs --users-file");
        }
        if (allowFrom != null) {
            builder.allowFrom(allowFrom);
        }
        if (frontDoor.managementPort == null) {
            return null;
        }
        ServerMetrics metrics = new ServerMetrics(); // last: nothing above can fail after it is made
        metrics.addTo(builder, frontDoor.metricsPath);
        return metrics;
    }

    private static RequestLog.Writer fileWriter(String file) {
        RequestLogWriter writer = new RequestLogWriter(file);
        writer.setAppend(true);
        return writer;
    }

    /** Lines on standard output, each written whole. */
    private static RequestLog.Writer standardOutput(OutputStream out) {
        return line -> {
            byte[] bytes = (line + System.lineSeparator()).getBytes(UTF_8);
            synchronized (out) {
                out.write(bytes);
                out.flush();
            }
        };
    }

    static final class Ranges implements ITypeConverter<AddressRanges> {
        @Override
        public AddressRanges convert(String value) {
            try {
                return AddressRanges.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }
}
