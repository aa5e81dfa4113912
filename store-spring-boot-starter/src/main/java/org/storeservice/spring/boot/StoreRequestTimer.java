package org.storeservice.spring.boot;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.binder.http.Outcome;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpFilter;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;

/**
 * Times every request to the Store servlet as {@value #METRIC}, tagged with the HTTP status and its
 * {@code outcome} class. ASMX answers a client's bad SOAP request with a 500 fault, so SERVER_ERROR counts
 * those as well as the server's own failures; which operation and binding a request used is not known here.
 * A request the servlet answers asynchronously (it reads bodies with async I/O) is recorded when it completes,
 * so this filter must be registered with async support (Spring Boot's default).
 */
public class StoreRequestTimer extends HttpFilter {
    private static final long serialVersionUID = 1L;
    /** The timer's name. */
    public static final String METRIC = "store.requests";

    private final transient MeterRegistry registry;

    public StoreRequestTimer(MeterRegistry registry) {
        this.registry = registry;
    }

    @Override
    protected void doFilter(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        Timer.Sample sample = Timer.start(registry);
        try {
            chain.doFilter(request, response);
        } finally {
            if (request.isAsyncStarted()) {
                // The servlet reads the body with async I/O: the answer is written after this returns.
                request.getAsyncContext().addListener(new AsyncListener() {
                    @Override
                    public void onComplete(AsyncEvent event) {
                        record(sample, response);
                    }

                    @Override
                    public void onTimeout(AsyncEvent event) {
                    }

                    @Override
                    public void onError(AsyncEvent event) {
                    }

                    @Override
                    public void onStartAsync(AsyncEvent event) {
                    }
                });
            } else {
                record(sample, response);
            }
        }
    }

    private void record(Timer.Sample sample, HttpServletResponse response) {
        int status = response.getStatus();
        sample.stop(Timer.builder(METRIC)
                .description("Requests to the Store endpoint")
                .tag("status", Integer.toString(status))
                .tag("outcome", Outcome.forStatus(status).name())
                .register(registry));
    }
}
