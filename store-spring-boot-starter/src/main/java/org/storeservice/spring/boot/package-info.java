/**
 * Spring Boot auto-configuration of the Store endpoint: add {@code store-spring-boot-starter} beside
 * {@code spring-boot-starter-web} and the endpoint answers at {@code /API/Store.asmx}; see
 * {@link org.storeservice.spring.boot.StoreAutoConfiguration} and the {@code store.*} properties in
 * {@link org.storeservice.spring.boot.StoreProperties}.
 */
package org.storeservice.spring.boot;
