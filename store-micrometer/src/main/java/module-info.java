/** The codec's requests as Micrometer meters: {@code StoreMetrics}, a {@code RequestObserver}. */
// micrometer-core has no module descriptor, only its Automatic-Module-Name; its MeterRegistry is in StoreMetrics' API.
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"})
module org.storeservice.micrometer {
    requires transitive org.storeservice.codec;
    requires transitive micrometer.core;

    exports org.storeservice.micrometer;
}
