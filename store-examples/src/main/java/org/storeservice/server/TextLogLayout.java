package org.storeservice.server;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.classic.spi.ThrowableProxy;
import ch.qos.logback.core.LayoutBase;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;

/**
 * The server's text log line, as slf4j-simple wrote it before the server moved to logback: time, level, the logger's
 * short name, message ({@code 2026-01-02T03:04:05.678+0000 INFO StoreServer - message}), then an exception's stack
 * trace as Java prints it. Written out rather than as a logback pattern, whose parser and converters cost about 80
 * classes at every start.
 */
final class TextLogLayout extends LayoutBase<ILoggingEvent> {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ")
            .withZone(ZoneId.systemDefault());

    @Override
    public String doLayout(ILoggingEvent event) {
        String logger = event.getLoggerName();
        StringWriter line = new StringWriter(128);
        PrintWriter out = new PrintWriter(line);
        out.println(TIME.format(Instant.ofEpochMilli(event.getTimeStamp())) + ' ' + event.getLevel() + ' '
                + logger.substring(logger.lastIndexOf('.') + 1) + " - " + event.getFormattedMessage());
        IThrowableProxy thrown = event.getThrowableProxy();
        if (thrown instanceof ThrowableProxy proxy) {
            proxy.getThrowable().printStackTrace(out);
        }
        out.flush();
        return line.toString();
    }
}
