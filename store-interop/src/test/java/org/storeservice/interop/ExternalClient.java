package org.storeservice.interop;

import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Assumptions;

/**
 * The rule every test of an external client follows when the client is not installed: on a developer's
 * machine the test is skipped, saying why and how to enable it; in CI ({@code CI=true}, as GitHub Actions and
 * {@code .ci/run} set it) it fails, so that a broken install can never turn the matrix silently green.
 */
final class ExternalClient {
    static final String CI_VARIABLE = "CI";

    private ExternalClient() {
    }

    /** Whether this run is CI, where every client must be present. */
    static boolean requiredHere() {
        return "true".equalsIgnoreCase(System.getenv(CI_VARIABLE));
    }

    /**
     * Skips (or, in CI, fails) the calling test unless every one of {@code files} is an executable file.
     *
     * @param client what the test drives, for the message
     * @param install how to install it (the Debian packages {@code .ci/run} installs)
     */
    static void requireExecutables(String client, String install, Path... files) {
        for (Path file : files) {
            if (!Files.isExecutable(file)) {
                require(false, client + ": " + file + " is not installed", install);
            }
        }
    }

    /** Skips (or, in CI, fails) the calling test unless {@code present}. */
    static void require(boolean present, String why, String install) {
        if (present) {
            return;
        }
        if (requiredHere()) {
            fail(why + ". CI=true, so this fails rather than skips; install with: " + install);
        }
        String message = why + "; skipping. To run it, install with: " + install
                + " (with CI=true a missing client fails the build instead).";
        System.out.println("[store-interop] " + message);
        Assumptions.abort(message);
    }
}
