package org.storeservice.server;

import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Reads an option's default from the environment variable {@code STORE_} + its long name in upper case with
 * {@code _} for {@code -}: {@code --storage} from {@code STORE_STORAGE}, {@code --max-request-bytes} from
 * {@code STORE_MAX_REQUEST_BYTES}. A variable that is unset or empty leaves the built-in default; an option on
 * the command line wins over both. Each option's help names its variable (checked by a test).
 *
 * <p>Not read from the environment: {@code --help}, {@code --version}, what {@code delete} deletes and its
 * confirmation ({@code delete --prefix}, {@code delete --yes}), and {@code compare --include-writes}, and the shape of {@code diff}'s report ({@code --show}, {@code --all}): a variable
 * left set must never widen or confirm a deletion, or send writes, nobody typed.
 */
final class EnvironmentDefaults implements IDefaultValueProvider {
    static final String PREFIX = "STORE_";
    private static final Set<String> COMMAND_LINE_ONLY = Set.of("delete --prefix", "delete --yes", "compare --include-writes",
            "import --progress", "diff --show", "diff --all");

    private final Map<String, String> environment;

    EnvironmentDefaults(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
    }

    @Override
    public String defaultValue(ArgSpec argument) {
        if (!(argument instanceof OptionSpec option) || !readsEnvironment(option)) {
            return null; // picocli then uses the option's own default
        }
        String value = environment.get(variable(option));
        return value == null || value.isEmpty() ? null : value;
    }

    static boolean readsEnvironment(OptionSpec option) {
        return !option.usageHelp() && !option.versionHelp()
                && !COMMAND_LINE_ONLY.contains(option.command().name() + " " + option.longestName());
    }

    /** {@code --max-key-length} → {@code STORE_MAX_KEY_LENGTH}. */
    static String variable(OptionSpec option) {
        return PREFIX + option.longestName().replaceFirst("^-+", "").toUpperCase(Locale.ROOT).replace('-', '_');
    }
}
