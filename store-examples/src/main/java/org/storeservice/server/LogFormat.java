package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.LoggingEvent;
import co.elastic.logging.logback.EcsEncoder;
import java.io.IOException;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.util.component.ContainerLifeCycle;
import org.slf4j.LoggerFactory;

/**
 * {@code --log-format}: how the server's log lines on standard error look. {@link #TEXT}, the default, is one line per
 * message as it always was ({@code 2026-01-02T03:04:05.678+0000 INFO StoreServer - message}); {@link #JSON} is one JSON
 * object per line in the Elastic Common Schema ({@code @timestamp}, {@code log.level}, {@code log.logger},
 * {@code message}, {@code error.type}, {@code error.message}, {@code error.stack_trace}, ...), written by Elastic's
 * logback encoder, for a platform that collects container logs. The access log follows it.
 */
enum LogFormat {
    TEXT, JSON;

    /** {@code service.name} in each JSON line. */
    static final String SERVICE_NAME = "store-server";
    /** The logger the access log's JSON lines name: Jetty's own access log logger. */
    static final String ACCESS_LOGGER = "org.eclipse.jetty.server.RequestLog";

    /**
     * Sets logback up for this format, unless it is so already. Call before the command's first message; levels
     * ({@code --log-level}) after it, since this resets them.
     */
    void apply() {
        if (LoggerFactory.getILoggerFactory() instanceof LoggerContext context
                && !name().equals(context.getProperty(ServerLogConfigurator.FORMAT_PROPERTY))) {
            context.reset();
            ServerLogConfigurator.configure(context, this);
        }
    }

    /**
     * The access log as this format writes it: each line as it is ({@link #TEXT}), or as the {@code message} of one
     * ECS JSON object ({@link #JSON}) from the logger {@value #ACCESS_LOGGER}, at info.
     */
    RequestLog.Writer accessLog(RequestLog.Writer writer) {
        if (this == TEXT || !(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return writer;
        }
        return new JsonAccessLog(writer, context);
    }

    /**
     * Each line as one JSON object, written by {@code writer}; a life cycle that starts and stops {@code writer} with
     * itself, as Jetty would have done (a file writer opens its file when started).
     */
    private static final class JsonAccessLog extends ContainerLifeCycle implements RequestLog.Writer {
        private final RequestLog.Writer writer;
        private final EcsEncoder encoder;
        private final ch.qos.logback.classic.Logger logger;

        JsonAccessLog(RequestLog.Writer writer, LoggerContext context) {
            this.writer = writer;
            this.encoder = ServerLogConfigurator.jsonEncoder(context);
            this.logger = context.getLogger(ACCESS_LOGGER);
            addBean(writer);
        }

        @Override
        public void write(String line) throws IOException {
            LoggingEvent event = new LoggingEvent(LogFormat.class.getName(), logger, Level.INFO, line, null, null);
            writer.write(new String(encoder.encode(event), UTF_8).stripTrailing()); // the writer ends the line
        }
    }
}
