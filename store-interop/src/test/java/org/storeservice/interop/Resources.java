package org.storeservice.interop;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.Path;

/** Test resources as files, for the external programs that read them. */
final class Resources {
    private Resources() {
    }

    /** The absolute path of test resource {@code name} (copied to target/test-classes by the build). */
    static String path(String name) {
        URL url = Resources.class.getClassLoader().getResource(name);
        if (url == null) {
            throw new IllegalStateException("No test resource " + name);
        }
        try {
            return Path.of(url.toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException("Not a file: " + url, e);
        }
    }
}
