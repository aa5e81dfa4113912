package org.storeservice.server;

import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/** {@code --log-format}, for the commands that run until stopped: {@code serve} and {@code shadow}. */
final class LogFormatOption {
    @Option(names = "--log-format", paramLabel = "FORMAT", defaultValue = "text", converter = Converter.class,
            description = "Log lines on standard error as text, or json: one JSON object per line in the Elastic"
                    + " Common Schema (the access log too). Env: STORE_LOG_FORMAT.")
    LogFormat format;

    /** Sets the log format up; call before anything logs, and before the log level is applied. */
    void apply() {
        format.apply();
    }

    static final class Converter implements ITypeConverter<LogFormat> {
        @Override
        public LogFormat convert(String value) {
            try {
                return LogFormat.valueOf(value.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(value + " is neither text nor json");
            }
        }
    }
}
