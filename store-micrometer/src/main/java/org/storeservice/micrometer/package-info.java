/**
 * The codec's requests as Micrometer meters: {@link org.storeservice.micrometer.StoreMetrics}, a
 * {@link org.storeservice.codec.RequestObserver} that records each answered request by binding, operation and outcome
 * in a {@code MeterRegistry}.
 */
package org.storeservice.micrometer;
