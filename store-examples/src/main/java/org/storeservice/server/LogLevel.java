package org.storeservice.server;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code --log-level}: the level of the server's loggers (logback, {@link ServerLogConfigurator}). Jetty stays at
 * {@code warn} and HikariCP at {@code error} unless the level is quieter than that; at {@code debug} and {@code trace}
 * HikariCP follows it (its warnings carry stack traces: the storage's own lines say what a failover did).
 */
enum LogLevel {
    TRACE, DEBUG, INFO, WARN, ERROR, OFF;

    private static final String HIKARI = "com.zaxxer.hikari";
    private static final String[] CHATTY_LIBRARIES = {"org.eclipse.jetty", HIKARI};

    void apply() {
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            return; // another SLF4J binding (a host's tests): its own configuration decides
        }
        Level level = Level.toLevel(name());
        context.getLogger(Logger.ROOT_LOGGER_NAME).setLevel(level);
        if (compareTo(WARN) > 0) {
            for (String library : CHATTY_LIBRARIES) {
                context.getLogger(library).setLevel(level);
            }
        } else if (compareTo(DEBUG) <= 0) {
            context.getLogger(HIKARI).setLevel(level);
        }
    }
}
