package org.storeservice.server;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.IntConsumer;

/**
 * What the tool takes from the process it runs in, so that tests can run it in-process with their own.
 *
 * @param in standard input: what {@code import} reads
 * @param out standard output: data only; written as bytes (a value, an export), so that a failed write (a closed
 *     pipe, a full disk) is an error, which a {@code PrintStream} would swallow
 * @param err standard error: messages and usage errors
 * @param environment the environment variables, read for the {@code STORE_*} option defaults
 * @param shutdownHooks registers a thread to run at JVM shutdown ({@code Runtime::addShutdownHook})
 * @param halt ends the process with a status from within a shutdown hook ({@code Runtime::halt}), where
 *     {@code System.exit} would block for ever
 * @param beforeOpening told each storage URI before it is opened ({@link SqliteNativeLibrary#useCachedCopy})
 * @param outIsTerminal whether standard output is a terminal (a person reads it), not a pipe or a file
 */
record ToolContext(InputStream in, OutputStream out, PrintStream err, Map<String, String> environment,
        Consumer<Thread> shutdownHooks, IntConsumer halt, Consumer<String> beforeOpening, boolean outIsTerminal) {

    /** A context whose standard output is not a terminal. */
    ToolContext(InputStream in, OutputStream out, PrintStream err, Map<String, String> environment,
            Consumer<Thread> shutdownHooks, IntConsumer halt, Consumer<String> beforeOpening) {
        this(in, out, err, environment, shutdownHooks, halt, beforeOpening, false);
    }
}
