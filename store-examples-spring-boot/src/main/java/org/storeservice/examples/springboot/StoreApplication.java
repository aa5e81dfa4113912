package org.storeservice.examples.springboot;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * A Spring Boot application that serves the Store endpoint and nothing of its own: the starter registers it at
 * {@code /API/Store.asmx} from the {@code store.*} properties in {@code application.properties}.
 */
@SpringBootApplication
public class StoreApplication {
    public static void main(String[] args) {
        SpringApplication.run(StoreApplication.class, args);
    }
}
