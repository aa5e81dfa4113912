package org.storeservice.servlet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.servlet.ServletException;
import jakarta.servlet.UnavailableException;
import java.util.List;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.server.Server;
import org.junit.jupiter.api.Test;
import org.storeservice.api.DefaultStore;
import org.storeservice.api.storage.MemoryStorage;
import org.storeservice.codec.StoreCodec;

/** Where the servlet takes its endpoint path from, and what it refuses. */
class StoreServletTest {
    @Test
    void thePathMappingNamesTheEndpoint() throws ServletException {
        assertEquals("/API/Store.asmx", StoreServlet.mappedPath(List.of("/API/Store.asmx/*")));
        assertEquals("/API/Store.asmx", StoreServlet.mappedPath(List.of("/API/Store.asmx/*", "/API/Store.asmx")));
        assertEquals("/API/Store.asmx/*", StoreServlet.mapping("/API/Store.asmx"));
    }

    @Test
    void mappingsThatNameNoOneEndpointAreRefused() {
        for (List<String> mappings : List.<List<String>>of(List.of(), List.of("/"), List.of("/*"), List.of("*.asmx"),
                List.of("/a/*", "/b/*"), List.of("/a/*/x"))) {
            assertThrows(ServletException.class, () -> StoreServlet.mappedPath(mappings), mappings::toString);
        }
        assertThrows(IllegalArgumentException.class, () -> StoreServlet.mapping("/API/Store.asmx/"));
        assertThrows(IllegalArgumentException.class, () -> StoreServlet.mapping("API/Store.asmx"));
    }

    @Test
    void aBadNamespaceIsRefusedWhenBuilt() {
        try (MemoryStorage storage = new MemoryStorage()) {
            StoreServlet.Builder builder = StoreServlet.builder(DefaultStore.of(storage)).namespace("");
            assertThrows(IllegalArgumentException.class, builder::build);
        }
    }

    @Test
    void aCodecForAnotherPathFailsTheStart() throws Exception {
        try (MemoryStorage storage = new MemoryStorage()) {
            StoreCodec codec = StoreCodec.builder(DefaultStore.of(storage)).build(); // at /API/Store.asmx
            Server jetty = new Server(0);
            ServletContextHandler context = new ServletContextHandler("/app");
            ServletHolder holder = new ServletHolder(StoreServlet.of(codec));
            holder.setInitOrder(1);
            context.addServlet(holder, "/API/Store.asmx/*");
            jetty.setHandler(context);
            try {
                Exception failure = assertThrows(Exception.class, jetty::start);
                Throwable cause = failure;
                while (!(cause instanceof ServletException) && cause.getCause() != null) {
                    cause = cause.getCause();
                }
                assertTrue(cause instanceof ServletException && !(cause instanceof UnavailableException), failure::toString);
                assertTrue(cause.getMessage().contains("endpointPath(\"/app/API/Store.asmx\")"), cause::getMessage);
            } finally {
                jetty.stop();
            }
        }
    }
}
