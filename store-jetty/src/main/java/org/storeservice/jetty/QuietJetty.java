package org.storeservice.jetty;

import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.handler.ErrorHandler;

/** What the endpoint's server and the management server share: they say nothing about themselves, and stop when told. */
final class QuietJetty {
    private QuietJetty() {
    }

    /** Makes {@code jetty} stop only when told, and answer what its handlers do not with a bare error page. */
    static void quiet(Server jetty) {
        // Stopping is the host's call (see StoreServer#stop()); Jetty must not register a JVM shutdown hook of its own.
        jetty.setStopAtShutdown(false);
        // Jetty answers what the handlers do not (other paths, malformed HTTP): never with a stack or a message.
        ErrorHandler errors = new ErrorHandler();
        errors.setShowStacks(false);
        errors.setShowCauses(false);
        errors.setShowMessageInTitle(false);
        jetty.setErrorHandler(errors);
    }

    /** An HTTP configuration that sends neither {@code Server} nor {@code X-Powered-By}. */
    static HttpConfiguration httpConfiguration() {
        HttpConfiguration http = new HttpConfiguration();
        // Say nothing about the software in every response; an attacker needs no version to look up.
        http.setSendServerVersion(false);
        http.setSendXPoweredBy(false);
        return http;
    }
}
