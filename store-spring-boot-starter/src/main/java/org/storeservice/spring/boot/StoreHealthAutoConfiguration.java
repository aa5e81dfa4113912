package org.storeservice.spring.boot;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.storeservice.api.storage.Storage;

/**
 * The storage's health as the {@code store} health contributor, when Actuator (Spring Boot's health support)
 * is on the class path; {@code management.health.store.enabled=false} turns it off.
 */
@AutoConfiguration(after = StoreAutoConfiguration.class)
@ConditionalOnClass(HealthIndicator.class)
@ConditionalOnBean(Storage.class)
@ConditionalOnEnabledHealthIndicator("store")
public class StoreHealthAutoConfiguration {
    @Bean
    @ConditionalOnMissingBean(name = "storeHealthIndicator")
    public StoreHealthIndicator storeHealthIndicator(Storage storage, StoreProperties properties) {
        return new StoreHealthIndicator(storage, properties.getHealth().getTimeout());
    }
}
