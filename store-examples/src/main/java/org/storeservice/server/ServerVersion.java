package org.storeservice.server;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the project version Maven wrote into {@code store-server-version.properties}. */
final class ServerVersion implements IVersionProvider {
    @Override
    public String[] getVersion() throws IOException {
        Properties properties = new Properties();
        try (InputStream in = ServerVersion.class.getResourceAsStream("/store-server-version.properties")) {
            if (in != null) {
                properties.load(in);
            }
        }
        return new String[] {"store-server " + properties.getProperty("version", "(version unknown)")};
    }
}
