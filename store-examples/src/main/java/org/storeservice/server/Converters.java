package org.storeservice.server;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.Locale;
import org.storeservice.codec.Protocols;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Option values, checked as they are read, each failure said in a few words that picocli puts after the option. */
final class Converters {
    private Converters() {
    }

    static final class Port implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return (int) number(value, 0, 65535);
        }
    }

    /** A listen backlog, as {@code StoreServer.Builder#acceptQueueSize} takes it. */
    static final class AcceptQueue implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return (int) number(value, 1, 65535);
        }
    }

    static final class ByteCount implements ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            return number(value, 0, Long.MAX_VALUE);
        }
    }

    static final class KeyLength implements ITypeConverter<Integer> {
        @Override
        public Integer convert(String value) {
            return (int) number(value, 1, Integer.MAX_VALUE);
        }
    }

    /** Seconds, fractions allowed, at least a millisecond (what Jetty's timers resolve), at most a year. */
    static final class Seconds implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            BigDecimal seconds;
            try {
                seconds = new BigDecimal(value.strip());
            } catch (NumberFormatException e) {
                throw new TypeConversionException("not a number of seconds: " + value);
            }
            if (seconds.compareTo(new BigDecimal("0.001")) < 0 || seconds.compareTo(BigDecimal.valueOf(86_400L * 365)) > 0) {
                throw new TypeConversionException(value + " is outside 0.001..31536000 seconds");
            }
            return Duration.ofNanos(seconds.movePointRight(9).longValue());
        }
    }

    /** Seconds as {@link Seconds} takes them, or {@code 0} for none. */
    static final class SecondsOrZero implements ITypeConverter<Duration> {
        @Override
        public Duration convert(String value) {
            try {
                if (new BigDecimal(value.strip()).signum() == 0) {
                    return Duration.ZERO;
                }
            } catch (NumberFormatException e) {
                throw new TypeConversionException("not a number of seconds: " + value);
            }
            return new Seconds().convert(value);
        }
    }

    /** ASMX's protocol names, comma-separated: {@code HttpSoap,HttpSoap12,Documentation}. */
    static final class ProtocolList implements ITypeConverter<Protocols> {
        @Override
        public Protocols convert(String value) {
            try {
                return Protocols.parse(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        }
    }

    static final class NonEmpty implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (value.isBlank()) {
                throw new TypeConversionException("needs a non-empty value");
            }
            return value;
        }
    }

    /** An absolute URL path, such as {@code /metrics}. */
    static final class Path implements ITypeConverter<String> {
        @Override
        public String convert(String value) {
            if (!value.startsWith("/") || value.length() < 2 || value.chars().anyMatch(c -> c <= ' ' || c == '?' || c == '#')) {
                throw new TypeConversionException("not a path like /metrics: " + value);
            }
            return value;
        }
    }

    static final class Level implements ITypeConverter<LogLevel> {
        @Override
        public LogLevel convert(String value) {
            try {
                return LogLevel.valueOf(value.strip().toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(value + " is none of trace, debug, info, warn, error, off");
            }
        }
    }

    private static long number(String value, long min, long max) {
        long number;
        try {
            number = Long.parseLong(value.strip());
        } catch (NumberFormatException e) {
            throw new TypeConversionException("not a whole number: " + value);
        }
        if (number < min || number > max) {
            throw new TypeConversionException(value + " is outside " + min + ".." + max);
        }
        return number;
    }
}
