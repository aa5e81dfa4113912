package org.storeservice.spring.boot;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.storeservice.micrometer.StoreMetrics;

/**
 * The Store endpoint's request metrics ({@link StoreMetrics}: {@code store.requests}, {@code store.request.duration},
 * {@code store.request.body}, tagged {@code binding}, {@code operation} and {@code outcome}) in the application's
 * Micrometer registry, when there is one: the same meters the ready server publishes. The codec is told of every
 * answered request through this observer ({@link StoreAutoConfiguration#storeCodec}).
 */
@AutoConfiguration(before = StoreAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass({MeterRegistry.class, StoreMetrics.class})
@ConditionalOnBean(MeterRegistry.class)
public class StoreMetricsAutoConfiguration {
    @Bean
    @ConditionalOnMissingBean
    public StoreMetrics storeMetrics(MeterRegistry registry) {
        return new StoreMetrics(registry);
    }
}
