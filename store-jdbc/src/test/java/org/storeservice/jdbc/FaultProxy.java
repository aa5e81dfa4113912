package org.storeservice.jdbc;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A TCP forwarder between a storage and a real PostgreSQL that injects faults into exchanges, chosen by what the client
 * sends: each fault {@linkplain #arm armed} goes to the first client chunk that contains its pattern (a statement's
 * text: the URL must set {@code prepareThreshold=0}, so that every statement is sent as text). It has fired once the
 * server answered that chunk (or, cutting before, once the chunk was dropped). Several may be armed at once, each taken
 * by one exchange. While {@linkplain #arm held}, no client byte is forwarded on any connection after the fault fired,
 * until {@link #release}: the storage cannot find out what happened meanwhile (a partition right after a commit). Also
 * whole outages: every connection cut ({@link #cutAll}), new ones refused ({@link #refuse}).
 *
 * <p>It also reads what passes, as far as the commit-row protocol goes: each client chunk is named by its
 * {@link Statement}, a fault records the statement that took it, and each lookup step's answer (fence in, row found,
 * committed, committed with writes that wrote nothing, not committed, failed) is told to a {@link LookupListener}
 * with the batch's id as sent, so that a test can count what its faults made happen. Faults gated on that, not on
 * time: a commit held back until its own batch's lookup was sent ({@link Fault#HOLD_PAST_LOOKUP}). Server-side errors:
 * 57P01 by the server itself ({@link Fault#TERMINATE_BACKEND}); 40001, 40P01 and 25006 answered by the proxy in the
 * server's stead, as the statement never reaches the server (making the server raise them on demand would take a
 * serializable conflict, a deadlock or a promotion, none of which a test can aim at one COMMIT).
 */
public final class FaultProxy implements AutoCloseable {

    /** What an armed fault does to the exchange it is taken by. */
    public enum Fault {
        /** The statement reaches the server, which runs (and, for a commit, commits) it; its answer is dropped and the
         * connection closed as soon as the server has answered. */
        DROP_ANSWER,
        /** The connection is cut just before the statement would have reached the server. */
        CUT_BEFORE,
        /** The statement reaches the server; its answer, and every later byte the server sends, is held back until the
         * client gives up on the connection (its socket time-out); then the server's side is closed too. */
        STALL_ANSWER,
        /** The statement reaches the server; the first part of its answer is forwarded, then the connection is reset
         * (a message cut in the middle). */
        RESET_MID_ANSWER,
        /** The statement is held back, not sent, until another connection has sent a commit-row lookup (and it was
         * answered, or it waits, as a fence waits for a commit still under way); the client meanwhile gives up at its
         * socket time-out. Then the statement goes to the server on the connection the client left, and its answer is
         * dropped: a commit that lands after its lookup, which only the fence stops. */
        HOLD_PAST_LOOKUP,
        /** The server's process for the connection is ended ({@code pg_terminate_backend}, SQLSTATE 57P01 admin
         * shutdown) just before the statement would reach it: the client reads the server's own FATAL answer. */
        TERMINATE_BACKEND,
        /** The statement is not sent; the proxy answers it with an ErrorResponse of SQLSTATE 40001 (serialization
         * failure), in the server's stead; the client abandons the connection, and the server rolls its transaction
         * back. */
        ERROR_40001,
        /** Likewise with 40P01, deadlock detected. */
        ERROR_40P01,
        /** Likewise with 25006, read-only SQL transaction: what a primary demoted to a standby answers a write. */
        ERROR_25006
    }

    /** What a client chunk is, from the statement text it holds (the commit-row protocol's statements by name). */
    public enum Statement {
        /** The single-statement batch: its commit row inserted by a {@code WITH} clause, in auto-commit. */
        WITH_COMMIT_ROW,
        /** The lookup's fence: the batch's id inserted as "not committed". */
        FENCE,
        /** The lookup's read of the commit row, after the fence found it. */
        LOOKUP_SELECT,
        /** A transaction's COMMIT. */
        COMMIT,
        /** Anything else. */
        OTHER;

        static Statement of(byte[] chunk, int length) {
            if (contains(chunk, length, WITH)) {
                return WITH_COMMIT_ROW;
            }
            if (contains(chunk, length, FENCE_TEXT)) {
                return FENCE;
            }
            if (contains(chunk, length, SELECT_TEXT)) {
                return LOOKUP_SELECT;
            }
            return contains(chunk, length, COMMIT_TEXT) ? COMMIT : OTHER;
        }

        private static final byte[] WITH = "WITH commit_row".getBytes(UTF_8);
        private static final byte[] FENCE_TEXT = "ON CONFLICT (id) DO NOTHING".getBytes(UTF_8);
        private static final byte[] SELECT_TEXT = "SELECT committed, not_written".getBytes(UTF_8);
        private static final byte[] COMMIT_TEXT = "COMMIT".getBytes(UTF_8);
    }

    /** What the server answered one step of a lookup, as the proxy saw it pass. */
    public enum LookupAnswer {
        /** The fence went in: the batch never committed. */
        FENCED,
        /** The fence found the row: the read follows. */
        ROW_FOUND,
        /** The read: committed, every write wrote. */
        COMMITTED,
        /** The read: committed, some writes wrote nothing (a REJECT that found its key, a delete that found none). */
        COMMITTED_NOT_WRITTEN,
        /** The read: a fence of an earlier lookup, or no row. */
        NOT_COMMITTED,
        /** No answer reached the client: the connection broke, or an error came back. */
        FAILED
    }

    /** Told of each lookup step the proxy saw answered (or fail), with the batch id's bytes as sent, in hex. */
    @FunctionalInterface
    public interface LookupListener {
        void answered(String batchId, LookupAnswer answer);
    }

    /** Ends the server process {@code pid} (a {@code pg_terminate_backend} on a connection of the test's own). */
    @FunctionalInterface
    public interface Terminator {
        void terminate(int pid) throws Exception;
    }

    /** One armed fault: taken by the first chunk that holds its pattern; {@link #fired} once it has done its work. */
    public static final class Armed {
        private final Fault fault;
        private final byte[] pattern;
        private final boolean hold;
        private final CountDownLatch fired = new CountDownLatch(1);
        private boolean taken; // guarded by the proxy
        /** Taken only on a connection whose transaction ran a statement over arrays (a lane's batch, no lone value). */
        private boolean afterArrayRun;
        private volatile Statement firedOn;

        private Armed(Fault fault, byte[] pattern, boolean hold) {
            this.fault = fault;
            this.pattern = pattern;
            this.hold = hold;
        }

        /** Whether it fired (within {@code millis}). */
        public boolean awaitFired(long millis) throws InterruptedException {
            return fired.await(millis, TimeUnit.MILLISECONDS);
        }

        public boolean fired() {
            return fired.getCount() == 0;
        }

        public Fault fault() {
            return fault;
        }

        /** The statement that took it; null until taken. */
        public Statement firedOn() {
            return firedOn;
        }
    }

    private final String targetHost;
    private final int targetPort;
    private final ServerSocket listener;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final List<Armed> armed = new CopyOnWriteArrayList<>();
    private final Object gate = new Object();
    private boolean held; // guarded by gate
    private volatile boolean refusing;
    private volatile Armed last;
    private volatile LookupListener lookups = (id, answer) -> { };
    private volatile Terminator terminator;
    /** The connections whose statement is held past a lookup, waiting for one. */
    private final List<Exchange> heldPastLookup = new CopyOnWriteArrayList<>();

    public FaultProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        listener = new ServerSocket();
        listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread acceptor = new Thread(this::accept, "fault-proxy-accept");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return listener.getLocalPort();
    }

    /**
     * The next client chunk containing {@code statementText} gets {@code fault}; if {@code hold}, every connection
     * then stops forwarding what the client sends until {@link #release}.
     */
    public Armed arm(Fault fault, String statementText, boolean hold) {
        Armed armedFault = new Armed(fault, statementText.getBytes(UTF_8), hold);
        armed.add(armedFault);
        last = armedFault;
        return armedFault;
    }

    /**
     * As {@link #arm}, but taken only on a connection whose open transaction ran a statement over arrays: the COMMIT of
     * a lane's batch of small writes, not of a large value committed alone.
     */
    public Armed armAfterArrayRun(Fault fault, String statementText, boolean hold) {
        Armed armedFault = new Armed(fault, statementText.getBytes(UTF_8), hold);
        armedFault.afterArrayRun = true;
        armed.add(armedFault);
        last = armedFault;
        return armedFault;
    }

    /** Waits until the fault armed last fired; {@code false} if it did not within {@code seconds}. */
    public boolean awaitFired(long seconds) throws InterruptedException {
        return last.awaitFired(TimeUnit.SECONDS.toMillis(seconds));
    }

    /** Who is told of the lookups the proxy sees answered. */
    public void onLookup(LookupListener listener) {
        this.lookups = listener;
    }

    /** What {@link Fault#TERMINATE_BACKEND} ends a server process with. */
    public void terminator(Terminator terminator) {
        this.terminator = terminator;
    }

    /** Forgets the faults armed and not taken yet. */
    public void disarmAll() {
        armed.clear();
    }

    /** Stops forwarding what the clients send, on every connection, until {@link #release} (a partition). */
    public void hold() {
        synchronized (gate) {
            held = true;
        }
    }

    /** Lets what the clients send through again. */
    public void release() {
        synchronized (gate) {
            held = false;
            gate.notifyAll();
        }
    }

    /** Resets every connection open now (the database's host vanished, or its postmaster was killed). */
    public void cutAll() {
        for (Socket socket : sockets) {
            reset(socket);
        }
    }

    /** While {@code refuse}, new connections are closed as soon as they are accepted (the database is down). */
    public void refuse(boolean refuse) {
        this.refusing = refuse;
    }

    @Override
    public void close() throws IOException {
        release();
        listener.close();
        for (Socket socket : sockets) {
            closeQuietly(socket);
        }
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                if (refusing) {
                    reset(client);
                    continue;
                }
                Socket server = new Socket();
                server.connect(new InetSocketAddress(targetHost, targetPort), 5_000);
                sockets.add(client);
                sockets.add(server);
                Exchange exchange = new Exchange(client, server);
                start(exchange::clientToServer, "fault-proxy-up");
                start(exchange::serverToClient, "fault-proxy-down");
            } catch (IOException e) {
                // the listener closed, or the server refused: the client sees its connection drop
            }
        }
    }

    private static void start(Runnable pump, String name) {
        Thread thread = new Thread(pump, name);
        thread.setDaemon(true);
        thread.start();
    }

    /** A lookup step sent on a connection: its statement, the batch id's bytes (hex), answered once. */
    private static final class SentLookup {
        final Statement statement;
        final String batchId;
        final CountDownLatch answered = new CountDownLatch(1);
        final AtomicBoolean reported = new AtomicBoolean();

        SentLookup(Statement statement, String batchId) {
            this.statement = statement;
            this.batchId = batchId;
        }
    }

    /** One client connection and its server connection. */
    private final class Exchange {
        private final Socket client;
        private final Socket server;
        /** Set once this connection's fault was taken: the server's bytes go as it says. */
        private volatile Armed firedHere;
        /** The server process's id, from its BackendKeyData; 0 until seen. */
        private volatile int backendPid;
        /** The batch id last sent on this connection (a commit row's insert, a WITH commit_row statement). */
        private volatile String lastBatchId;
        /** Whether a statement over arrays went since the last COMMIT. */
        private boolean arrayRunSinceCommit;
        /** The lookup step sent and not answered yet. */
        private volatile SentLookup lookup;
        /** Set while the server's answer to the proxy's own ROLLBACK is dropped, up to its ReadyForQuery. */
        private volatile CountDownLatch swallowUntilReady;
        /** {@link Fault#HOLD_PAST_LOOKUP}: the statement held, the batch it commits, and the lookup that frees it. */
        private volatile byte[] held;
        private volatile String heldBatchId;
        private final CountDownLatch lookupSeen = new CountDownLatch(1);
        private volatile SentLookup freedBy;
        private final CountDownLatch heldAnswered = new CountDownLatch(1);

        Exchange(Socket client, Socket server) {
            this.client = client;
            this.server = server;
        }

        void clientToServer() {
            byte[] buffer = new byte[64 * 1024];
            OutputStream out = null;
            try (InputStream in = client.getInputStream()) {
                out = server.getOutputStream();
                int n;
                while ((n = in.read(buffer)) >= 0) {
                    if (held != null) {
                        continue; // the client's later bytes (its Terminate) never reach the held transaction
                    }
                    awaitGate();
                    Statement statement = Statement.of(buffer, n);
                    String batchId = batchId(buffer, n);
                    if (batchId != null && (statement == Statement.WITH_COMMIT_ROW
                            || contains(buffer, n, COMMIT_ROW_INSERT))) {
                        lastBatchId = batchId;
                    }
                    if (statement == Statement.FENCE || statement == Statement.LOOKUP_SELECT) {
                        SentLookup sent = new SentLookup(statement, batchId);
                        lookup = sent;
                        lookupSent(this, sent);
                    }
                    if (contains(buffer, n, ARRAY_RUN)) {
                        arrayRunSinceCommit = true;
                    }
                    Armed taken = takeFault(buffer, n, arrayRunSinceCommit);
                    if (statement == Statement.COMMIT) {
                        arrayRunSinceCommit = false;
                    }
                    if (taken != null) {
                        taken.firedOn = statement;
                        firedHere = taken; // before the bytes go: the answer must not slip through
                        if (taken.fault == Fault.CUT_BEFORE
                                || taken.fault == Fault.TERMINATE_BACKEND && backendPid == 0) {
                            fired(taken);
                            break;
                        }
                        if (taken.fault == Fault.HOLD_PAST_LOOKUP) {
                            held = Arrays.copyOf(buffer, n);
                            heldBatchId = lastBatchId;
                            heldPastLookup.add(this);
                            fired(taken);
                            continue;
                        }
                        if (taken.fault == Fault.TERMINATE_BACKEND) {
                            terminateBackend();
                            fired(taken);
                            continue; // the server's FATAL goes to the client, then its end of the connection
                        }
                        if (taken.fault.name().startsWith("ERROR_")) {
                            rollBack(out);
                            answerError(taken.fault.name().substring("ERROR_".length()));
                            fired(taken);
                            continue; // the statement never reaches the server; its transaction ended there
                        }
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException | InterruptedException e) {
                // one side closed
            } finally {
                if (held != null && out != null) {
                    sendHeld(out);
                }
                // The client gave up (for a stalled answer, at its socket time-out) or the fault cut it: the server's
                // side goes too, so that no backend is left waiting for a client that is gone.
                closeBoth();
            }
        }

        /**
         * The client has given up on the held statement: it goes to the server once a lookup of its batch was sent
         * and answered, or has waited a moment (a fence waits for the transaction this statement commits).
         */
        private void sendHeld(OutputStream out) {
            try {
                if (lookupSeen.await(10, TimeUnit.SECONDS)) {
                    freedBy.answered.await(150, TimeUnit.MILLISECONDS);
                }
                out.write(held);
                out.flush();
                heldAnswered.await(5, TimeUnit.SECONDS);
            } catch (IOException | InterruptedException e) {
                // the server went: nothing of the statement committed
            } finally {
                heldPastLookup.remove(this);
            }
        }

        void serverToClient() {
            byte[] buffer = new byte[64 * 1024];
            try (InputStream in = server.getInputStream(); OutputStream out = client.getOutputStream()) {
                int n;
                boolean answered = false;
                while ((n = in.read(buffer)) >= 0) {
                    if (backendPid == 0) {
                        backendPid = backendPid(buffer, n);
                    }
                    CountDownLatch swallowing = swallowUntilReady;
                    if (swallowing != null) {
                        if (contains(buffer, n, READY)) {
                            swallowUntilReady = null;
                            swallowing.countDown();
                        }
                        continue; // the answer to the proxy's ROLLBACK
                    }
                    Armed here = firedHere;
                    if (here != null && here.fault == Fault.HOLD_PAST_LOOKUP) {
                        heldAnswered.countDown(); // the held statement's answer: the client is gone
                        break;
                    }
                    if (here != null && !answered && here.fault != Fault.TERMINATE_BACKEND
                            && !here.fault.name().startsWith("ERROR_")) {
                        answered = true;
                        if (here.fault == Fault.RESET_MID_ANSWER) {
                            synchronized (this) {
                                out.write(buffer, 0, Math.max(1, n / 2));
                                out.flush();
                            }
                        }
                        fired(here); // the server has done what was sent (a commit, committed) and answered
                    }
                    boolean dropped = here != null && (here.fault == Fault.DROP_ANSWER
                            || here.fault == Fault.RESET_MID_ANSWER || here.fault == Fault.STALL_ANSWER);
                    if (here != null && (here.fault == Fault.DROP_ANSWER || here.fault == Fault.RESET_MID_ANSWER)) {
                        if (here.fault == Fault.RESET_MID_ANSWER) {
                            reset(client);
                        }
                        break; // drop the answer, and the connection
                    }
                    if (dropped) {
                        continue; // stalled: read and forgotten; the client waits until its socket time-out
                    }
                    synchronized (this) {
                        out.write(buffer, 0, n);
                        out.flush();
                    }
                    SentLookup sent = lookup;
                    if (sent != null) {
                        LookupAnswer answer = lookupAnswer(sent.statement, buffer, n);
                        if (answer != null) {
                            lookup = null;
                            report(sent, answer);
                        }
                    }
                }
            } catch (IOException e) {
                // one side closed
            } finally {
                closeBoth();
            }
        }

        /**
         * Ends the server's transaction, if one is open (an error there would have ended it), its answer swallowed: the
         * server and the client then agree that none is open.
         */
        private void rollBack(OutputStream out) throws IOException, InterruptedException {
            byte[] query = "ROLLBACK\0".getBytes(UTF_8);
            CountDownLatch done = new CountDownLatch(1);
            swallowUntilReady = done;
            out.write(ByteBuffer.allocate(5 + query.length).put((byte) 'Q').putInt(4 + query.length).put(query).array());
            out.flush();
            done.await(5, TimeUnit.SECONDS);
        }

        /** Answers the client, in the server's stead, with an error of {@code sqlState}; nothing reaches the server. */
        private void answerError(String sqlState) throws IOException {
            byte[] fields = ("SERROR\0VERROR\0C" + sqlState + "\0Minjected by the test's proxy: " + sqlState + "\0\0")
                    .getBytes(UTF_8);
            ByteBuffer message = ByteBuffer.allocate(1 + 4 + fields.length + 6);
            message.put((byte) 'E').putInt(4 + fields.length).put(fields);
            message.put((byte) 'Z').putInt(5).put((byte) 'I'); // as after the ROLLBACK
            OutputStream out = client.getOutputStream();
            synchronized (this) {
                out.write(message.array());
                out.flush();
            }
        }

        private void terminateBackend() {
            try {
                terminator.terminate(backendPid);
            } catch (Exception e) {
                reset(client); // no terminator: the connection is lost all the same
            }
        }

        private void closeBoth() {
            SentLookup sent = lookup;
            if (sent != null) {
                lookup = null;
                report(sent, LookupAnswer.FAILED);
            }
            closeQuietly(client);
            closeQuietly(server);
            sockets.remove(client);
            sockets.remove(server);
        }
    }

    private static final byte[] READY = {'Z', 0, 0, 0, 5};
    private static final byte[] ARRAY_RUN = "unnest(".getBytes(UTF_8);
    private static final byte[] COMMIT_ROW_INSERT = "(id, committed, not_written)".getBytes(UTF_8);

    /** Tells the statements held past a lookup of their batch that it was sent. */
    private void lookupSent(Exchange on, SentLookup sent) {
        for (Exchange waiting : heldPastLookup) {
            if (waiting != on && (waiting.heldBatchId == null || waiting.heldBatchId.equals(sent.batchId))
                    && waiting.freedBy == null) {
                waiting.freedBy = sent;
                waiting.lookupSeen.countDown();
            }
        }
    }

    private void report(SentLookup sent, LookupAnswer answer) {
        if (sent.reported.compareAndSet(false, true)) {
            sent.answered.countDown();
            lookups.answered(sent.batchId, answer);
        }
    }

    /** What the server's answer in {@code chunk} says of a lookup step; null if it holds no answer yet. */
    private static LookupAnswer lookupAnswer(Statement statement, byte[] chunk, int length) {
        if (contains(chunk, length, ERROR_SEVERITY)) {
            return LookupAnswer.FAILED;
        }
        if (statement == Statement.FENCE) {
            return contains(chunk, length, INSERTED_ONE) ? LookupAnswer.FENCED
                    : contains(chunk, length, INSERTED_NONE) ? LookupAnswer.ROW_FOUND : null;
        }
        // A DataRow of two columns, the first a one-byte boolean in text: 't' or 'f'; the second null or an array.
        for (int i = 0; i + 16 <= length; i++) {
            if (chunk[i] == 'D' && chunk[i + 5] == 0 && chunk[i + 6] == 2 && chunk[i + 7] == 0 && chunk[i + 8] == 0
                    && chunk[i + 9] == 0 && chunk[i + 10] == 1) {
                if (chunk[i + 11] == 'f') {
                    return LookupAnswer.NOT_COMMITTED;
                }
                boolean notWrittenNull = chunk[i + 12] == -1 && chunk[i + 13] == -1 && chunk[i + 14] == -1
                        && chunk[i + 15] == -1;
                return notWrittenNull ? LookupAnswer.COMMITTED : LookupAnswer.COMMITTED_NOT_WRITTEN;
            }
        }
        return contains(chunk, length, SELECTED_NONE) ? LookupAnswer.NOT_COMMITTED : null;
    }

    private static final byte[] ERROR_SEVERITY = "SERROR\0".getBytes(UTF_8);
    private static final byte[] INSERTED_ONE = "INSERT 0 1\0".getBytes(UTF_8);
    private static final byte[] INSERTED_NONE = "INSERT 0 0\0".getBytes(UTF_8);
    private static final byte[] SELECTED_NONE = "SELECT 0\0".getBytes(UTF_8);

    /** The server process id of a BackendKeyData message in {@code chunk}, or 0. */
    private static int backendPid(byte[] chunk, int length) {
        for (int i = 0; i + 13 <= length; i++) {
            if (chunk[i] == 'K' && chunk[i + 1] == 0 && chunk[i + 2] == 0 && chunk[i + 3] == 0 && chunk[i + 4] == 12) {
                return ByteBuffer.wrap(chunk, i + 5, 4).getInt();
            }
        }
        return 0;
    }

    /**
     * The first parameter of the last Bind message of {@code chunk}, in hex (a batch's id, for the commit-row
     * statements); null if the chunk is not whole messages or has no Bind.
     */
    static String batchId(byte[] chunk, int length) {
        ByteBuffer messages = ByteBuffer.wrap(chunk, 0, length);
        String id = null;
        try {
            while (messages.remaining() >= 5) {
                byte type = messages.get();
                int size = messages.getInt();
                int next = messages.position() + size - 4;
                if (size < 4 || next > length) {
                    return id;
                }
                if (type == 'B') {
                    skipCString(messages);
                    skipCString(messages);
                    short formats = messages.getShort();
                    messages.position(messages.position() + 2 * formats);
                    if (messages.getShort() > 0) {
                        int valueLength = messages.getInt();
                        if (valueLength > 0 && valueLength <= 64) {
                            byte[] value = new byte[valueLength];
                            messages.get(value);
                            id = HexFormat.of().formatHex(value);
                        }
                    }
                }
                messages.position(next);
            }
        } catch (RuntimeException e) {
            return id; // not a whole message: part of a large value
        }
        return id;
    }

    /** Whether {@code chunk} is whole protocol messages (not part of a large value's). */
    private static boolean wholeMessages(byte[] chunk, int length) {
        int at = 0;
        while (at + 5 <= length) {
            int size = ByteBuffer.wrap(chunk, at + 1, 4).getInt();
            if (size < 4) {
                return false;
            }
            at += 1 + size;
        }
        return at == length;
    }

    private static void skipCString(ByteBuffer buffer) {
        while (buffer.get() != 0) {
            // skip
        }
    }

    /** The first armed fault not taken yet whose pattern {@code chunk} holds, taken (once). */
    private synchronized Armed takeFault(byte[] chunk, int length, boolean afterArrayRun) {
        for (Armed candidate : armed) {
            if (candidate.afterArrayRun && !afterArrayRun) {
                continue;
            }
            boolean keepsChunkBack = candidate.fault == Fault.HOLD_PAST_LOOKUP
                    || candidate.fault.name().startsWith("ERROR_");
            if (!candidate.taken && contains(chunk, length, candidate.pattern)
                    && (!keepsChunkBack || wholeMessages(chunk, length))) {
                candidate.taken = true;
                armed.remove(candidate);
                return candidate;
            }
        }
        return null;
    }

    private void fired(Armed fault) {
        if (fault.hold) {
            synchronized (gate) {
                held = true;
            }
        }
        fault.fired.countDown();
    }

    private void awaitGate() throws InterruptedException {
        synchronized (gate) {
            while (held) {
                gate.wait();
            }
        }
    }

    private static boolean contains(byte[] chunk, int length, byte[] wanted) {
        outer:
        for (int i = 0; i + wanted.length <= length; i++) {
            for (int j = 0; j < wanted.length; j++) {
                if (chunk[i + j] != wanted[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }

    /** Closes {@code socket} with a reset (no orderly shutdown): what a client sees of a host that died. */
    private static void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException e) {
            // closed already
        }
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }
}
