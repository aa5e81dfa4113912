package org.storeservice.spring.boot;

import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;

/** Times the Store endpoint's requests in the application's Micrometer registry, when there is one. */
@AutoConfiguration(after = StoreAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(value = MeterRegistry.class, name = StoreAutoConfiguration.REGISTRATION_BEAN)
public class StoreMetricsAutoConfiguration {
    @Bean
    @ConditionalOnMissingBean(name = "storeRequestTimer")
    public FilterRegistrationBean<StoreRequestTimer> storeRequestTimer(MeterRegistry registry,
            @Qualifier(StoreAutoConfiguration.REGISTRATION_BEAN) ServletRegistrationBean<?> servlet) {
        FilterRegistrationBean<StoreRequestTimer> filter =
                new FilterRegistrationBean<>(new StoreRequestTimer(registry), servlet);
        filter.setName("storeRequestTimer");
        filter.setAsyncSupported(true); // the servlet answers asynchronously; the timer records at completion
        return filter;
    }
}
