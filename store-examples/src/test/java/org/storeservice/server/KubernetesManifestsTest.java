package org.storeservice.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * deploy/kubernetes's manifests, read with fabric8's Kubernetes model (no cluster), hold what docs/install.md
 * ("Kubernetes") promises: SQLite as a StatefulSet of one replica with a volume claim on the image's volume; PostgreSQL
 * as a Deployment of several replicas whose URL comes from a Secret, with a PodDisruptionBudget; every pod running the
 * image release/image.sh names, its readiness and liveness probes on the health paths of the image's management port,
 * a grace period longer than the drain and stop time its arguments give, a read-only root file system and a non-root
 * user; and no secret in plain text. Fields the model does not know (a typo) fail the test.
 */
class KubernetesManifestsTest {
    private static final Path MANIFESTS = Path.of("..", "deploy", "kubernetes");
    private static final Path IMAGE_SCRIPT = Path.of("..", "release", "oci-archive.py");
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of("Service", Service.class,
            "StatefulSet", StatefulSet.class, "Deployment", Deployment.class, "PodDisruptionBudget", PodDisruptionBudget.class);
    /** The server's defaults (ServeCommand): a manifest that does not give them gets them. */
    private static final int DEFAULT_DRAIN_SECONDS = 5;
    private static final int DEFAULT_STOP_TIMEOUT_SECONDS = 10;

    @Test
    void sqliteIsOneReplicaWithAVolumeClaimOnTheImagesVolume() throws IOException {
        List<HasMetadata> resources = read("sqlite-statefulset.yaml");
        StatefulSet set = only(resources, StatefulSet.class);
        assertEquals(1, set.getSpec().getReplicas(), "SQLite: one process writes the file");
        assertEquals(1, set.getSpec().getVolumeClaimTemplates().size());
        String claim = set.getSpec().getVolumeClaimTemplates().get(0).getMetadata().getName();
        Container container = store(set.getSpec().getTemplate());
        assertTrue(container.getVolumeMounts().stream().anyMatch(mount -> mount.getName().equals(claim)
                && mount.getMountPath().equals("/var/lib/store")), "the claim holds /var/lib/store");
        assertTrue(env(container, "STORE_STORAGE") == null, "the image's default storage, sqlite:data/store.db");
        checkPod(set.getSpec().getTemplate());
        checkService(resources, set.getSpec().getTemplate());
    }

    @Test
    void postgresqlIsSeveralReplicasWithTheUrlFromASecretAndADisruptionBudget() throws IOException {
        List<HasMetadata> resources = read("postgresql-deployment.yaml");
        Deployment deployment = only(resources, Deployment.class);
        assertTrue(deployment.getSpec().getReplicas() >= 2, "several replicas");
        EnvVar storage = env(store(deployment.getSpec().getTemplate()), "STORE_STORAGE");
        assertNotNull(storage, "STORE_STORAGE names the database");
        assertNull(storage.getValue(), "the URL (and its password) is not in the manifest");
        assertNotNull(storage.getValueFrom().getSecretKeyRef(), "the URL comes from a Secret");
        PodDisruptionBudget budget = only(resources, PodDisruptionBudget.class);
        assertEquals(deployment.getSpec().getSelector().getMatchLabels(),
                budget.getSpec().getSelector().getMatchLabels(), "the budget covers the Deployment's pods");
        assertTrue(budget.getSpec().getMaxUnavailable() != null
                && budget.getSpec().getMaxUnavailable().getIntVal() < deployment.getSpec().getReplicas());
        checkPod(deployment.getSpec().getTemplate());
        checkService(resources, deployment.getSpec().getTemplate());
    }

    @Test
    void noManifestHoldsASecretInPlainText() throws IOException {
        try (var files = Files.list(MANIFESTS)) {
            for (Path file : files.filter(path -> path.toString().endsWith(".yaml")).toList()) {
                for (HasMetadata resource : read(file.getFileName().toString())) {
                    PodTemplateSpec template = resource instanceof Deployment deployment
                            ? deployment.getSpec().getTemplate()
                            : resource instanceof StatefulSet set ? set.getSpec().getTemplate() : null;
                    if (template == null) {
                        continue;
                    }
                    for (EnvVar variable : store(template).getEnv()) {
                        String value = String.valueOf(variable.getValue()).toLowerCase();
                        assertTrue(!variable.getName().contains("PASSWORD") && !value.contains("password")
                                && !value.startsWith("jdbc:"), file + ": " + variable);
                    }
                }
            }
        }
    }

    /** What every pod of the server must have. */
    private static void checkPod(PodTemplateSpec template) throws IOException {
        PodSpec pod = template.getSpec();
        Container container = store(template);
        assertTrue(pod.getAdditionalProperties().isEmpty() && container.getAdditionalProperties().isEmpty(),
                "fields the model does not know: " + pod.getAdditionalProperties() + container.getAdditionalProperties());
        Matcher image = Pattern.compile("(?:.+/)?(store-server):(.+)").matcher(container.getImage());
        assertTrue(image.matches(), container.getImage());
        assertEquals(imageName(), image.group(1), "the name release/image.sh gives");
        assertEquals(serverVersion().replace("-SNAPSHOT", ""), image.group(2), "the release's version");

        int managementPort = imagePort("MANAGEMENT_PORT");
        checkProbe(container.getReadinessProbe(), container, managementPort, "/health/ready");
        checkProbe(container.getLivenessProbe(), container, managementPort, "/health/live");
        // /health/ready may take the storage's check time to answer (docs/operating.md): a probe that gives up sooner,
        // or one slow answer that takes the pod out of the Service, would turn a slow commit into an outage.
        int readyWithin = documentedReadinessSeconds();
        for (Probe probe : List.of(container.getReadinessProbe(), container.getLivenessProbe())) {
            int timeout = probe.getTimeoutSeconds() == null ? 1 : probe.getTimeoutSeconds(); // Kubernetes' default
            assertTrue(timeout > readyWithin, probe.getHttpGet().getPath() + ": timeoutSeconds " + timeout
                    + " within the " + readyWithin + " s /health/ready may take");
        }
        assertTrue(threshold(container.getReadinessProbe()) >= 2, "readiness: one slow answer does not take the pod out");
        assertTrue(threshold(container.getLivenessProbe()) >= 3, "liveness: a restart needs several failures");

        int drain = option(container.getArgs(), "--drain-time", DEFAULT_DRAIN_SECONDS);
        int stop = option(container.getArgs(), "--stop-timeout", DEFAULT_STOP_TIMEOUT_SECONDS);
        assertTrue(drain > 0, "a drain, so that load balancers stop sending first");
        assertTrue(pod.getTerminationGracePeriodSeconds() > drain + stop,
                "grace " + pod.getTerminationGracePeriodSeconds() + " s against drain " + drain + " s + stop " + stop + " s");
        // The readiness probe sees the drain's 503 before the drain ends.
        Probe ready = container.getReadinessProbe();
        assertTrue(ready.getPeriodSeconds() * ready.getFailureThreshold() < drain, "readiness fails within the drain");

        assertTrue(pod.getSecurityContext().getRunAsNonRoot(), "runAsNonRoot");
        assertTrue(container.getSecurityContext().getReadOnlyRootFilesystem(), "a read-only root file system");
    }

    private static int threshold(Probe probe) {
        return probe.getFailureThreshold() == null ? 3 : probe.getFailureThreshold(); // Kubernetes' default
    }

    /** How long /health/ready may take to answer, as docs/operating.md's table of the management port says. */
    private static int documentedReadinessSeconds() throws IOException {
        String operating = Files.readString(Path.of("..", "docs", "operating.md"));
        Matcher row = Pattern.compile("\\| `/health/ready` \\|[^\\n]*? within (\\d+) s;").matcher(operating);
        assertTrue(row.find(), "docs/operating.md: /health/ready answers within N s");
        return Integer.parseInt(row.group(1));
    }

    private static void checkProbe(Probe probe, Container container, int managementPort, String path) {
        assertNotNull(probe, path);
        HTTPGetAction get = probe.getHttpGet();
        assertEquals(path, get.getPath());
        int port = get.getPort().getStrVal() == null ? get.getPort().getIntVal()
                : container.getPorts().stream().filter(p -> get.getPort().getStrVal().equals(p.getName()))
                        .map(ContainerPort::getContainerPort).findFirst().orElseThrow(() -> new AssertionError(
                                "no container port named " + get.getPort().getStrVal()));
        assertEquals(managementPort, port, path + " on the image's management port");
    }

    /** The Service sends clients to the pods' HTTP port (the image's 8080), which the probes do not use. */
    private static void checkService(List<HasMetadata> resources, PodTemplateSpec template) throws IOException {
        Service service = only(resources, Service.class);
        assertEquals(template.getMetadata().getLabels(), service.getSpec().getSelector());
        String target = service.getSpec().getPorts().get(0).getTargetPort().getStrVal();
        assertEquals(imagePort("HTTP_PORT"), store(template).getPorts().stream()
                .filter(port -> port.getName().equals(target)).findFirst().orElseThrow().getContainerPort());
    }

    private static List<HasMetadata> read(String file) throws IOException {
        List<HasMetadata> resources = new ArrayList<>();
        try (var documents = YAML.readerFor(JsonNode.class).<JsonNode>readValues(MANIFESTS.resolve(file).toFile())) {
            while (documents.hasNext()) {
                JsonNode document = documents.next();
                Class<? extends HasMetadata> kind = KINDS.get(document.path("kind").asText());
                if (kind == null) {
                    fail(file + ": a kind this test does not know (a Secret must not be here): " + document.path("kind"));
                }
                resources.add(YAML.treeToValue(document, kind));
            }
        }
        return resources;
    }

    private static <T> T only(List<HasMetadata> resources, Class<T> kind) {
        List<T> found = resources.stream().filter(kind::isInstance).map(kind::cast).toList();
        assertEquals(1, found.size(), kind.getSimpleName());
        return found.get(0);
    }

    private static Container store(PodTemplateSpec template) {
        assertEquals(1, template.getSpec().getContainers().size());
        return template.getSpec().getContainers().get(0);
    }

    private static EnvVar env(Container container, String name) {
        return container.getEnv().stream().filter(variable -> variable.getName().equals(name)).findFirst().orElse(null);
    }

    /** {@code --name N} or {@code --name=N} in {@code args}, else {@code otherwise}; the last one wins, as picocli's. */
    private static int option(List<String> args, String name, int otherwise) {
        int value = otherwise;
        for (int i = 0; i < args.size(); i++) {
            if (args.get(i).equals(name) && i + 1 < args.size()) {
                value = Integer.parseInt(args.get(i + 1));
            } else if (args.get(i).startsWith(name + "=")) {
                value = Integer.parseInt(args.get(i).substring(name.length() + 1));
            }
        }
        return value;
    }

    /** A port the image is built with (release/oci-archive.py's {@code HTTP_PORT, MANAGEMENT_PORT = ...}). */
    private static int imagePort(String name) throws IOException {
        Matcher ports = Pattern.compile("(?m)^HTTP_PORT, MANAGEMENT_PORT = (\\d+), (\\d+)$")
                .matcher(Files.readString(IMAGE_SCRIPT));
        assertTrue(ports.find(), "the ports in " + IMAGE_SCRIPT);
        return Integer.parseInt(ports.group(name.equals("HTTP_PORT") ? 1 : 2));
    }

    /** The name release/oci-archive.py gives the image, before the version. */
    private static String imageName() throws IOException {
        Matcher name = Pattern.compile("\"org\\.opencontainers\\.image\\.ref\\.name\": \"([\\w.-]+):\" \\+ args\\.version")
                .matcher(Files.readString(IMAGE_SCRIPT));
        assertTrue(name.find(), "the image's name in " + IMAGE_SCRIPT);
        return name.group(1);
    }

    private static String serverVersion() throws IOException {
        try (InputStream in = KubernetesManifestsTest.class.getResourceAsStream("/store-server-version.properties")) {
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version");
        }
    }
}
