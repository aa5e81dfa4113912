package org.storeservice.spring.boot;

import java.io.IOException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.core.io.ResourceLoader;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.Store;
import org.storeservice.api.storage.Storage;
import org.storeservice.api.storage.Storages;
import org.storeservice.codec.RequestObserver;
import org.storeservice.codec.StoreCodec;
import org.storeservice.servlet.StoreServlet;

/**
 * Serves the Store endpoint in a Spring Boot servlet web application: at {@code store.path} (default
 * {@code /API/Store.asmx}) inside the application's context path, every binding, the WSDL and the help pages.
 *
 * <p>Each bean backs off when the application defines its own: a {@link Storage} (then opened and closed by
 * the application), a {@link Store} (then no storage is opened here at all), a {@link StoreCodec}, or the
 * registration bean named {@value #REGISTRATION_BEAN}. The storage opened here from {@code store.storage} is
 * closed when the context closes, after the web server has stopped taking requests.
 */
@AutoConfiguration
@ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
@ConditionalOnClass({StoreServlet.class, ServletRegistrationBean.class})
@ConditionalOnBooleanProperty(name = "store.enabled", matchIfMissing = true)
@EnableConfigurationProperties(StoreProperties.class)
public class StoreAutoConfiguration {
    /** The name of the servlet registration bean; define a bean of this name to register the servlet yourself. */
    public static final String REGISTRATION_BEAN = "storeServletRegistration";

    /** The storage named by {@code store.storage}; closed with the context (its {@code close} is inferred). */
    @Bean
    @ConditionalOnMissingBean({Storage.class, Store.class, StoreCodec.class})
    public Storage storeStorage(StoreProperties properties, ResourceLoader resourceLoader) throws IOException {
        // The application's class loader, so that a backend inside a Spring Boot fat jar is found.
        return Storages.open(properties.getStorage(), resourceLoader.getClassLoader());
    }

    @Bean
    @ConditionalOnMissingBean({Store.class, StoreCodec.class})
    public Store store(Storage storage, StoreProperties properties) {
        return DefaultStore.builder(storage)
                .limits(properties.getLimits().toStoreLimits())
                .overwritePolicy(properties.getOverwritePolicy())
                .build();
    }

    /**
     * The codec, for the endpoint path clients see: the context path followed by {@code store.path}; it tells the
     * application's {@link RequestObserver} (the request metrics, when a Micrometer registry is present) of every
     * answered request.
     */
    @Bean
    @ConditionalOnMissingBean
    public StoreCodec storeCodec(Store store, StoreProperties properties, Environment environment,
            ObjectProvider<RequestObserver> observer) {
        StoreCodec.Builder codec = StoreCodec.builder(store)
                .namespace(properties.getNamespace())
                .endpointPath(contextPath(environment) + properties.getPath())
                .limits(properties.getLimits().toCodecLimits())
                .protocols(properties.toProtocols());
        observer.ifUnique(codec::observer);
        return codec.build();
    }

    @Bean(REGISTRATION_BEAN)
    @ConditionalOnMissingBean(name = REGISTRATION_BEAN)
    public ServletRegistrationBean<StoreServlet> storeServletRegistration(StoreCodec codec,
            StoreProperties properties) {
        ServletRegistrationBean<StoreServlet> registration =
                new ServletRegistrationBean<>(StoreServlet.of(codec), StoreServlet.mapping(properties.getPath()));
        registration.setName("store");
        // Started with the server, so that a misconfiguration stops the application rather than the first request.
        registration.setLoadOnStartup(1);
        registration.setAsyncSupported(true); // the servlet reads bodies with async I/O
        return registration;
    }

    /** The drain before the web server's graceful shutdown ({@code store.drain-time}; none by default). */
    @Bean
    @ConditionalOnMissingBean
    StoreDrain storeDrain(StoreProperties properties) {
        return new StoreDrain(properties.getDrainTime());
    }

    /** {@code server.servlet.context-path} as the servlet container gives it: empty for the root context. */
    private static String contextPath(Environment environment) {
        String contextPath = environment.getProperty("server.servlet.context-path", "");
        return contextPath.equals("/") ? "" : contextPath;
    }
}
