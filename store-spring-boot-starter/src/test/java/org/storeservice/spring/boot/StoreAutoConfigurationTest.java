package org.storeservice.spring.boot;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.Status;
import org.storeservice.api.Store;
import org.storeservice.api.StoreLimits;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.StorageException;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.StoreCodec;

/** Which beans the auto-configuration makes, which it leaves to the application, and what it closes. */
class StoreAutoConfigurationTest {
    private final WebApplicationContextRunner web = new WebApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(StoreAutoConfiguration.class))
            .withPropertyValues("store.storage=memory:");

    @Test
    void byDefaultItServesTheEndpointFromTheConfiguredStorageAndClosesItAfterwards() {
        AtomicReference<Storage> opened = new AtomicReference<>();
        web.run(context -> {
            opened.set(context.getBean(Storage.class));
            assertTrue(opened.get() instanceof MemoryStorage);
            assertEquals("/API/Store.asmx", context.getBean(StoreCodec.class).endpointPath());
            ServletRegistrationBean<?> registration =
                    context.getBean(StoreAutoConfiguration.REGISTRATION_BEAN, ServletRegistrationBean.class);
            assertEquals(java.util.Set.of("/API/Store.asmx/*"), java.util.Set.copyOf(registration.getUrlMappings()));
        });
        assertThrows(StorageException.class, () -> opened.get().get("k")); // closed with the context
    }

    @Test
    void thePropertiesReachTheCodecAndTheStore() {
        web.withPropertyValues("server.servlet.context-path=/app", "store.path=/legacy/Service.asmx",
                "store.namespace=urn:x", "store.overwrite-policy=REJECT", "store.limits.max-request-bytes=1KB",
                "store.limits.max-key-length=3").run(context -> {
            StoreCodec codec = context.getBean(StoreCodec.class);
            assertEquals("/app/legacy/Service.asmx", codec.endpointPath());
            assertEquals("urn:x", codec.namespace());
            assertEquals(1024, codec.limits().maxRequestBytes());
            Store store = context.getBean(Store.class);
            assertEquals(Status.ERROR, store.writeString("long", "v"));
            assertEquals(Status.SUCCESS, store.writeString("k", "v"));
            assertEquals(Status.ERROR, store.writeString("k", "again")); // REJECT
        });
    }

    @Test
    void theApplicationsStorageIsUsedAndNoneIsOpened() throws IOException {
        MemoryStorage own = new MemoryStorage();
        web.withBean("ownStorage", Storage.class, () -> own, definition -> definition.setDestroyMethodName(""))
                .withPropertyValues("store.storage=no-such-backend:")
                .run(context -> {
                    assertSame(own, context.getBean(Storage.class));
                    assertEquals(Status.SUCCESS, context.getBean(Store.class).writeString("k", "v"));
                });
        assertEquals("v", assertOpen(own)); // the application's to close, not ours
        own.close();
    }

    @Test
    void theApplicationsStoreOrCodecReplacesEverythingBelowIt() {
        MemoryStorage own = new MemoryStorage();
        Store store = DefaultStore.of(own);
        web.withBean(Store.class, () -> store).withPropertyValues("store.storage=no-such-backend:").run(context -> {
            assertFalse(context.containsBean("storeStorage"));
            assertSame(store, context.getBean(Store.class));
        });
        StoreCodec codec = StoreCodec.builder(store).build();
        web.withBean(StoreCodec.class, () -> codec).withPropertyValues("store.storage=no-such-backend:").run(context -> {
            assertFalse(context.containsBean("storeStorage") || context.containsBean("store"));
            assertSame(codec, context.getBean(StoreCodec.class));
            assertTrue(context.containsBean(StoreAutoConfiguration.REGISTRATION_BEAN));
        });
        own.close();
    }

    @Test
    void itStaysOutWhenDisabledOrNotAServletWebApplication() {
        web.withPropertyValues("store.enabled=false").run(context -> assertFalse(context.containsBean("storeCodec")));
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(StoreAutoConfiguration.class))
                .run(context -> assertFalse(context.containsBean("storeCodec")));
    }

    @Test
    void theDefaultsAreTheLibrarysDefaults() {
        StoreProperties properties = new StoreProperties();
        assertEquals(StoreCodec.DEFAULT_ENDPOINT_PATH, properties.getPath());
        assertEquals(StoreCodec.DEFAULT_NAMESPACE, properties.getNamespace());
        assertEquals(CodecLimits.defaults().toString(), properties.getLimits().toCodecLimits().toString());
        assertEquals(StoreLimits.defaults().toString(), properties.getLimits().toStoreLimits().toString());
    }

    @Test
    void everyPropertyHasIdeMetadataWithADescription() throws IOException {
        String metadata;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            metadata = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        for (String name : new String[] {"store.enabled", "store.path", "store.storage", "store.namespace",
                "store.overwrite-policy", "store.protocols", "store.health.timeout", "store.drain-time",
                "store.limits.max-request-bytes",
                "store.limits.max-element-depth", "store.limits.max-attributes-per-element",
                "store.limits.max-attribute-value-length", "store.limits.max-text-length",
                "store.limits.max-element-count", "store.limits.max-parameter-names",
                "store.limits.spool-memory-bytes", "store.limits.max-key-length", "store.limits.max-value-bytes"}) {
            int at = metadata.indexOf("\"name\": \"" + name + "\"");
            assertTrue(at >= 0, name);
            assertTrue(metadata.indexOf("\"description\"", at) < metadata.indexOf('}', at), name + " has no description");
        }
        assertEquals(18, metadata.split("\"sourceType\": \"org.storeservice.spring.boot.StoreProperties", -1).length - 1 - 3,
                "18 properties (and 3 groups)");
    }

    private static String assertOpen(MemoryStorage storage) throws IOException {
        return storage.get("k").orElseThrow().text();
    }
}
