package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.Callable;
import org.storeservice.jetty.BasicUsers;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code users}: manages the users file of {@code --users-file}; its one subcommand is {@code add}. */
@Command(name = "users", mixinStandardHelpOptions = true, versionProvider = ServerVersion.class,
        header = "Manage the users file of Basic authentication.",
        description = "Manages the users file that --users-file names: one line per user, a salted PBKDF2 hash.")
final class UsersCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        throw new ParameterException(spec.commandLine(), "users needs a command: add");
    }

    /**
     * {@code users add NAME --file FILE}: reads the password from standard input (its first line) and writes NAME's
     * salted hash into FILE, replacing NAME's old line. The password is never an argument: it would show in
     * {@code ps} and the shell's history.
     */
    @Command(name = "add", mixinStandardHelpOptions = true, versionProvider = ServerVersion.class,
            header = "Add a user, or change a user's password.",
            description = {"Reads the password from the first line of standard input and writes NAME with a salted"
                    + " PBKDF2 hash of it into FILE (created if absent), replacing NAME's old entry.",
                    "Example: printf '%s\\n' \"$PASSWORD\" | java -jar store-server.jar users add alice --file users"})
    static final class Add implements Callable<Integer> {
        @Parameters(paramLabel = "NAME", description = "The user name (no ':').")
        String name;

        // Also --users-file, so that its variable is serve's: STORE_USERS_FILE.
        @Option(names = {"--file", "--users-file"}, paramLabel = "FILE", required = true,
                description = "The users file. Env: STORE_USERS_FILE.")
        Path file;

        private final ToolContext context;

        Add(ToolContext context) {
            this.context = context;
        }

        @Override
        public Integer call() throws IOException {
            String line = new BufferedReader(new InputStreamReader(context.in(), UTF_8)).readLine();
            if (line == null || line.isEmpty()) {
                context.err().println("store-server users add: no password on standard input");
                return Main.EXIT_FAILURE;
            }
            char[] password = line.toCharArray();
            try {
                BasicUsers.addTo(file, name, password);
            } catch (IllegalArgumentException e) {
                context.err().println("store-server users add: " + e.getMessage());
                return Main.EXIT_USAGE;
            } finally {
                Arrays.fill(password, '\0');
            }
            context.err().println("store-server users add: " + name + " written to " + file);
            return Main.EXIT_OK;
        }
    }
}
