/**
 * The ASMX Store service's core, free of any wire format or server: {@code org.storeservice.api} ({@code Store},
 * {@code DefaultStore}, {@code Status}, the limits and the overwrite policy) and {@code org.storeservice.api.storage}
 * (the storage SPI, {@code Storages} and the {@code memory:} backend). Depends on SLF4J's API alone.
 */
module org.storeservice.api {
    requires transitive org.slf4j;
    exports org.storeservice.api;
    exports org.storeservice.api.storage;
    uses org.storeservice.api.storage.StorageProvider;
    provides org.storeservice.api.storage.StorageProvider with org.storeservice.api.storage.MemoryStorageProvider;
}
