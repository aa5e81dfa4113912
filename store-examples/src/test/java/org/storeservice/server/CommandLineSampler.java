package org.storeservice.server;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * What {@code ps -eo args} would have shown any user of the machine: every process's command line
 * ({@code /proc/PID/cmdline}), read again and again on a thread of its own until stopped, each distinct one kept.
 * Every command line is read on each sweep, not once per PID, since a process that forks and then execs keeps its
 * PID but changes its command line.
 */
final class CommandLineSampler {
    private static final Path PROC = Path.of("/proc");

    private final Set<String> seen = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final AtomicLong sweeps = new AtomicLong();
    private final Thread thread;

    private CommandLineSampler() {
        thread = new Thread(this::sample, "command-line-sampler");
        thread.setDaemon(true);
    }

    static CommandLineSampler start() {
        CommandLineSampler sampler = new CommandLineSampler();
        sampler.thread.start();
        return sampler;
    }

    /** Stops sampling; the distinct command lines seen, arguments separated by spaces. */
    Set<String> stop() throws InterruptedException {
        running.set(false);
        thread.join(TimeUnit.SECONDS.toMillis(10));
        return Set.copyOf(seen);
    }

    long sweeps() {
        return sweeps.get();
    }

    private void sample() {
        while (running.get()) {
            try (DirectoryStream<Path> processes = Files.newDirectoryStream(PROC,
                    path -> path.getFileName().toString().chars().allMatch(Character::isDigit))) {
                for (Path process : processes) {
                    try {
                        byte[] cmdline = Files.readAllBytes(process.resolve("cmdline"));
                        if (cmdline.length > 0) {
                            seen.add(new String(cmdline, UTF_8).replace('\0', ' ').strip());
                        }
                    } catch (IOException e) {
                        // the process ended between the listing and the read
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException("cannot list " + PROC, e);
            }
            sweeps.incrementAndGet();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // leaves the deployment a share of the CPUs
        }
    }
}
