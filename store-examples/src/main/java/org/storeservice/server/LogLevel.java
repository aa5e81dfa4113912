package org.storeservice.server;

import java.util.Locale;

/**
 * {@code --log-level}: the level of slf4j-simple's loggers, set as its system properties, which it reads when the
 * first logger is created; so the commands apply it before anything logs (no command holds a static logger).
 * Jetty stays at {@code warn} and HikariCP at {@code error} (simplelogger.properties) unless the level is quieter than
 * that; at {@code debug} and {@code trace} HikariCP follows it (its warnings carry stack traces: the storage's own
 * lines say what a failover did).
 */
enum LogLevel {
    TRACE, DEBUG, INFO, WARN, ERROR, OFF;

    private static final String DEFAULT_LEVEL = "org.slf4j.simpleLogger.defaultLogLevel";
    private static final String HIKARI = "com.zaxxer.hikari";
    private static final String[] CHATTY_LIBRARIES = {"org.eclipse.jetty", HIKARI};

    void apply() {
        String level = name().toLowerCase(Locale.ROOT);
        System.setProperty(DEFAULT_LEVEL, level);
        if (compareTo(WARN) > 0) {
            for (String library : CHATTY_LIBRARIES) {
                System.setProperty("org.slf4j.simpleLogger.log." + library, level);
            }
        } else if (compareTo(DEBUG) <= 0) {
            System.setProperty("org.slf4j.simpleLogger.log." + HIKARI, level);
        }
    }
}
