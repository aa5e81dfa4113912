package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.storeservice.api.storage.StorageProvider;
import org.storeservice.server.plugin.MapStorageProvider;

/**
 * A custom backend with the ready server, as the README says to run it: the backend's jar beside the server's on the
 * class path and {@code org.storeservice.server.Main} named ({@code java -jar} ignores {@code -cp}).
 */
class PluginBackendIT {

    /** Without the backend's jar the server refuses {@code map:} (a usage error); with it, it serves on it. */
    @Test
    void aBackendJarOnTheClassPathServesItsUriScheme(@TempDir Path directory) throws Exception {
        Process without = ServerJar.command("--port", "0", "--storage", "map:").start();
        String refused = new String(without.getErrorStream().readAllBytes(), UTF_8);
        assertEquals(Main.EXIT_USAGE, ServerJar.exitStatus(without, Duration.ofSeconds(60)), refused);
        assertTrue(refused.startsWith("store-server: No storage backend for 'map:'"), refused);

        Path plugin = backendJar(directory.resolve("map-backend.jar"));
        Path stdout = directory.resolve("out.txt");
        Path stderr = directory.resolve("err.txt");
        Process server = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp",
                ServerJar.JAR.toAbsolutePath() + File.pathSeparator + plugin, "org.storeservice.server.Main",
                "--port", "0", "--storage", "map:")
                .redirectOutput(stdout.toFile()).redirectError(stderr.toFile()).start();
        try {
            URI endpoint = URI.create(ServerJar.firstLine(stdout, server, stderr, Duration.ofSeconds(60)));
            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(URI.create(endpoint + "/WriteString?key=k&value=v")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, response.statusCode(), response.body());
            assertTrue(response.body().contains(">Success<"), response.body());
        } finally {
            server.destroy();
            ServerJar.exitStatus(server, Duration.ofSeconds(60));
        }
    }

    /** A jar holding only {@link MapStorageProvider} and its service entry, as a team would ship its backend. */
    private static Path backendJar(Path jar) throws IOException {
        String classFile = MapStorageProvider.class.getName().replace('.', '/') + ".class";
        byte[] bytes;
        try (var in = MapStorageProvider.class.getClassLoader().getResourceAsStream(classFile)) {
            bytes = in.readAllBytes();
        }
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file)) {
            out.putNextEntry(new JarEntry(classFile));
            out.write(bytes);
            out.putNextEntry(new JarEntry("META-INF/services/" + StorageProvider.class.getName()));
            out.write((MapStorageProvider.class.getName() + "\n").getBytes(UTF_8));
            out.closeEntry();
        }
        return jar;
    }
}
