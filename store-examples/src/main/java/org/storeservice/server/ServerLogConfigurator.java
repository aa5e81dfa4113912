package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.encoder.Encoder;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import ch.qos.logback.core.spi.ContextAwareBase;
import co.elastic.logging.logback.EcsEncoder;
import org.slf4j.Logger;

/**
 * The server's logback set-up, in code rather than an XML file (no parser at start): every message to standard
 * error (standard output carries only the endpoint URL), at info, Jetty at warn and HikariCP at error (the storage says
 * what a failover did; HikariCP's own warnings carry stack traces), in the {@link LogFormat} asked for: text lines
 * ({@code TextLogLayout}) or Elastic's ECS encoder. logback finds
 * it through {@code META-INF/services}, for the text format; {@link LogFormat#apply} sets it up again for JSON.
 *
 * <p>A logger's level can still be set on its own with the system property slf4j-simple read, which the docs name,
 * e.g. {@code -Dorg.slf4j.simpleLogger.log.org.eclipse.jetty=debug}.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_HIGH_PRIORITY)
public final class ServerLogConfigurator extends ContextAwareBase implements Configurator {
    /** The context property that records the format set up. */
    static final String FORMAT_PROPERTY = "store.log.format";
    private static final String LEVEL_PROPERTY_PREFIX = "org.slf4j.simpleLogger.log.";

    /** For logback's service loader. */
    public ServerLogConfigurator() {
    }

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        configure(context, LogFormat.TEXT);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }

    static void configure(LoggerContext context, LogFormat format) {
        Encoder<ILoggingEvent> encoder;
        if (format == LogFormat.JSON) {
            encoder = jsonEncoder(context);
        } else {
            TextLogLayout layout = new TextLogLayout();
            layout.setContext(context);
            layout.start();
            LayoutWrappingEncoder<ILoggingEvent> text = new LayoutWrappingEncoder<>();
            text.setContext(context);
            text.setLayout(layout);
            text.setCharset(UTF_8);
            text.start();
            encoder = text;
        }
        ConsoleAppender<ILoggingEvent> console = new ConsoleAppender<>();
        console.setContext(context);
        console.setName("stderr");
        console.setTarget("System.err");
        console.setEncoder(encoder);
        console.start();
        ch.qos.logback.classic.Logger root = context.getLogger(Logger.ROOT_LOGGER_NAME);
        root.addAppender(console);
        root.setLevel(Level.INFO);
        context.getLogger("org.eclipse.jetty").setLevel(Level.WARN);
        context.getLogger("com.zaxxer.hikari").setLevel(Level.ERROR);
        System.getProperties().stringPropertyNames().stream().filter(name -> name.startsWith(LEVEL_PROPERTY_PREFIX))
                .forEach(name -> context.getLogger(name.substring(LEVEL_PROPERTY_PREFIX.length()))
                        .setLevel(Level.toLevel(System.getProperty(name), null)));
        context.putProperty(FORMAT_PROPERTY, format.name());
    }

    /** Elastic's ECS encoder: one JSON object per event, the stack trace inside it as one string. */
    static EcsEncoder jsonEncoder(LoggerContext context) {
        EcsEncoder json = new EcsEncoder();
        json.setContext(context);
        json.setServiceName(LogFormat.SERVICE_NAME);
        json.start();
        return json;
    }
}
