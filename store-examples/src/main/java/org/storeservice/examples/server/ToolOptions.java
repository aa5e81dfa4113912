package org.storeservice.examples.server;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The command line of an operator's subcommand: {@code --storage URI} (default
 * {@link ServerOptions#DEFAULT_STORAGE_URI}), {@code --help}, the command's own valued options, and its
 * positional arguments. Values come as the next argument or after {@code =}, as for the server; a repeated
 * option's last value wins. {@code --} ends the options, so that a key may start with {@code --}.
 *
 * <p>Immutable.
 */
final class ToolOptions {
    private static final String STORAGE = "--storage";

    private final String storageUri;
    private final Map<String, String> values;
    private final List<String> positionals;
    private final boolean help;

    private ToolOptions(String storageUri, Map<String, String> values, List<String> positionals, boolean help) {
        this.storageUri = storageUri;
        this.values = Map.copyOf(values);
        this.positionals = List.copyOf(positionals);
        this.help = help;
    }

    /**
     * Parses {@code args}.
     *
     * @param ownOptions the command's valued options besides {@code --storage}, e.g. {@code --prefix}
     * @param positionalCount how many positional arguments the command takes, exactly
     * @throws UsageException naming the first unknown option, missing value, or wrong number of arguments
     *     (unless {@code --help} was given, which wins)
     */
    static ToolOptions parse(List<String> args, Set<String> ownOptions, int positionalCount) throws UsageException {
        String storageUri = ServerOptions.DEFAULT_STORAGE_URI;
        Map<String, String> values = new HashMap<>();
        List<String> positionals = new ArrayList<>();
        boolean help = false;
        boolean optionsEnded = false;
        for (int i = 0; i < args.size(); i++) {
            String arg = args.get(i);
            if (optionsEnded || !arg.startsWith("--")) {
                positionals.add(arg);
                continue;
            }
            if (arg.equals("--")) {
                optionsEnded = true;
                continue;
            }
            int equals = arg.indexOf('=');
            String name = equals < 0 ? arg : arg.substring(0, equals);
            if (name.equals("--help")) {
                help = true;
                continue;
            }
            if (!name.equals(STORAGE) && !ownOptions.contains(name)) {
                throw new UsageException("unknown option: " + name);
            }
            String value;
            if (equals >= 0) {
                value = arg.substring(equals + 1);
            } else if (i + 1 < args.size()) {
                value = args.get(++i);
            } else {
                throw new UsageException("option " + name + " needs a value");
            }
            if (name.equals(STORAGE)) {
                if (value.isBlank()) {
                    throw new UsageException("option " + STORAGE + " needs a non-empty value");
                }
                storageUri = value;
            } else {
                values.put(name, value);
            }
        }
        if (!help && positionals.size() != positionalCount) {
            throw new UsageException(positionals.size() < positionalCount
                    ? "missing argument"
                    : "unexpected argument: " + positionals.get(positionalCount));
        }
        return new ToolOptions(storageUri, values, positionals, help);
    }

    String storageUri() {
        return storageUri;
    }

    /** The value of one of the command's own options, if given. */
    Optional<String> value(String option) {
        return Optional.ofNullable(values.get(option));
    }

    List<String> positionals() {
        return positionals;
    }

    boolean help() {
        return help;
    }
}
