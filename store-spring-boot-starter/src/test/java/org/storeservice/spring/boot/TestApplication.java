package org.storeservice.spring.boot;

import org.springframework.boot.autoconfigure.SpringBootApplication;

/** An application with no Store code of its own: the starter alone serves the endpoint. */
@SpringBootApplication
public class TestApplication {
}
