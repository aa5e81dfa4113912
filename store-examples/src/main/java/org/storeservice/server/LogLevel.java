package org.storeservice.server;

import java.util.Locale;

/**
 * {@code --log-level}: the level of slf4j-simple's loggers, set as its system properties, which it reads when the
 * first logger is created; so the commands apply it before anything logs (no command holds a static logger).
 * Jetty and HikariCP stay at {@code warn} (simplelogger.properties) unless the level is quieter than that.
 */
enum LogLevel {
    TRACE, DEBUG, INFO, WARN, ERROR, OFF;

    private static final String DEFAULT_LEVEL = "org.slf4j.simpleLogger.defaultLogLevel";
    private static final String[] CHATTY_LIBRARIES = {"org.eclipse.jetty", "com.zaxxer.hikari"};

    void apply() {
        String level = name().toLowerCase(Locale.ROOT);
        System.setProperty(DEFAULT_LEVEL, level);
        if (compareTo(WARN) > 0) {
            for (String library : CHATTY_LIBRARIES) {
                System.setProperty("org.slf4j.simpleLogger.log." + library, level);
            }
        }
    }
}
