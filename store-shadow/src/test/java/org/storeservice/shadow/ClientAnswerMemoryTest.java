package org.storeservice.shadow;

import static java.nio.charset.StandardCharsets.US_ASCII;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.storeservice.jetty.StoreServer;

/**
 * Many clients that never read a large answer: what waits for them in the proxy stays within the proxy-wide budget
 * (plus one network read each), not a megabyte for each client; and a client that reads gets its whole answer.
 */
class ClientAnswerMemoryTest {
    private static final int CLIENTS = 12;
    private static final int ANSWER_BYTES = 24 * 1024 * 1024;
    private static final long BUDGET = 256 * 1024;
    /** Far above one read of Jetty's client (16 KiB buffers), far below the megabyte each exchange may hold. */
    private static final long ONE_READ = 64 * 1024;

    @Test
    void clientsThatDoNotReadHoldNoMoreThanTheBudget() throws Exception {
        byte[] large = new byte[ANSWER_BYTES];
        java.util.Arrays.fill(large, (byte) 'x');
        List<Socket> clients = new ArrayList<>();
        try (LegacyPrimary primary = new LegacyPrimary((request, port) ->
                        new LegacyPrimary.Reply(200, "application/octet-stream", large));
                StoreServer shadow = StoreServer.builder().port(0).storage(new WatchedStorage()).build().start();
                ShadowProxy proxy = ShadowProxy.builder().port(0).primary(primary.endpoint())
                        .shadow(shadow.endpointUri()).clientAnswerBytes(BUDGET).build().start()) {
            ClientAnswerBudget budget = proxy.clientAnswers();
            for (int i = 0; i < CLIENTS; i++) {
                Socket client = new Socket();
                client.setReceiveBufferSize(4096);
                client.connect(new InetSocketAddress("127.0.0.1", proxy.port()), 60_000);
                client.getOutputStream().write(("GET /large/" + i + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                        .getBytes(US_ASCII));
                client.getOutputStream().flush();
                clients.add(client);
            }
            long deadline = System.nanoTime() + 120_000_000_000L;
            while (budget.heldBack() < CLIENTS && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(CLIENTS, budget.heldBack(), "every exchange waits for its client");
            assertTrue(budget.mostWaiting() <= BUDGET + CLIENTS * ONE_READ, "at most " + budget.mostWaiting()
                    + " bytes waited for the clients: over the budget of " + BUDGET + " and one read each");
            // A client that reads gets every byte, the budget spent or not.
            Socket reader = clients.get(0);
            reader.setSoTimeout(120_000);
            InputStream in = reader.getInputStream();
            byte[] buffer = new byte[65536];
            long read = 0;
            int n;
            StringBuilder head = new StringBuilder();
            while (head.indexOf("\r\n\r\n") < 0 && (n = in.read()) >= 0) {
                head.append((char) n);
            }
            assertTrue(head.toString().startsWith("HTTP/1.1 200"), head.toString());
            while (read < ANSWER_BYTES && (n = in.read(buffer)) >= 0) {
                read += n;
            }
            assertEquals(ANSWER_BYTES, read);
        } finally {
            for (Socket client : clients) {
                client.close();
            }
        }
    }
}
