package org.storeservice.examples.server;

import java.util.List;

/**
 * One thing the {@code store-server} tool does, chosen by {@link Main}: the server itself, and the
 * operators' subcommands ({@code get KEY}, {@code list}, {@code export}, {@code import}), which share the
 * {@code --storage} option.
 */
interface Command {

    /**
     * Runs with the arguments that follow the command's name.
     *
     * @return the process exit status, {@link Main#EXIT_OK} on success
     * @throws UsageException if the arguments are wrong; {@code Main} prints the message and the usage
     */
    int run(List<String> args) throws UsageException;

    /** The command's usage text, printed for {@code --help} and after a usage error. */
    String usage();

    /**
     * Whether the work goes on after {@link #run} returned success (the server's threads), so the process
     * must not exit then. The subcommands finish within {@code run}, and the process exits with its status.
     */
    default boolean keepsRunning() {
        return false;
    }
}
