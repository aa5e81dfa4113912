package org.storeservice.server;

import java.util.Locale;
import org.slf4j.LoggerFactory;
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

    /**
     * A command's own one-line error (a port taken, a storage that does not open): on standard error as it is in text,
     * and as one ERROR object from {@code command}'s logger, the same text its message, in json, so that every line a
     * platform reads there is JSON. Call after {@link #apply()}. With {@code --log-level off} it is the text line in
     * both: a failed start is never silent.
     */
    void error(ToolContext context, Class<?> command, String line) {
        org.slf4j.Logger logger = LoggerFactory.getLogger(command);
        if (format == LogFormat.JSON && logger.isErrorEnabled()) {
            logger.error(line);
            return;
        }
        context.err().println(line);
        context.err().flush();
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
