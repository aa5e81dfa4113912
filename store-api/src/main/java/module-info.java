module org.storeservice.api {
    requires transitive org.slf4j;
    exports org.storeservice.api;
    exports org.storeservice.api.storage;
    uses org.storeservice.api.storage.StorageProvider;
    provides org.storeservice.api.storage.StorageProvider with org.storeservice.api.storage.MemoryStorageProvider;
}
