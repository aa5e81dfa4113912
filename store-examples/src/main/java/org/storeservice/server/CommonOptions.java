package org.storeservice.server;

import picocli.CommandLine.Option;

/** The options every command takes: {@code --storage} and {@code --log-level}. */
final class CommonOptions {
    /**
     * Where entries are kept unless {@code --storage} says otherwise: the embedded SQLite database
     * {@code data/store.db} under the working directory, with {@code synchronous=FULL}, so a {@code Success}
     * survives a crash or a power cut.
     */
    static final String DEFAULT_STORAGE_URI = "sqlite:data/store.db";

    @Option(names = "--storage", paramLabel = "URI", defaultValue = DEFAULT_STORAGE_URI,
            converter = Converters.NonEmpty.class,
            description = "Where entries are kept: sqlite:FILE, jdbc:postgresql://HOST/DB?..., memory: or files:DIR."
                    + " Env: STORE_STORAGE.")
    String storageUri;

    @Option(names = "--log-level", paramLabel = "LEVEL", converter = Converters.Level.class,
            description = "Log level: trace, debug, info, warn, error or off (default info; Jetty and HikariCP"
                    + " log warnings only). Env: STORE_LOG_LEVEL.")
    LogLevel logLevel;

    /** Sets the log level if one was asked for; call before anything logs. */
    void applyLogLevel() {
        if (logLevel != null) {
            logLevel.apply();
        }
    }
}
