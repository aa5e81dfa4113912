package org.storeservice.server;

import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import org.storeservice.jetty.ListenException;

/** A failure to listen or to open a storage, said in one line for the operator, without a stack trace. */
final class Failures {
    private Failures() {
    }

    /**
     * Why the server could not listen, naming the port that failed and the option that sets it, or {@code null} if
     * {@code failure} is not about that.
     */
    static String listening(Throwable failure) {
        ListenException listen = find(failure, ListenException.class);
        if (listen == null) {
            return null;
        }
        String option = switch (listen.listener()) {
            case ENDPOINT -> "--port";
            case PLAIN_HTTP -> "--http-port";
            case MANAGEMENT -> "--management-port";
        };
        // The JDK's reason says which ("Address already in use", "Permission denied"): BindException is its only type.
        return "cannot listen on " + listen.host() + ":" + listen.port() + " (" + option + "): " + listen.reason();
    }

    /** {@code failure} in one line: a file system failure names the path and the reason, else the messages. */
    static String describe(Throwable failure) {
        FileSystemException file = find(failure, FileSystemException.class);
        if (file != null) {
            return "cannot create or open " + file.getFile() + ": " + reason(file);
        }
        String message = failure.getMessage() == null ? failure.toString() : failure.getMessage();
        return message.replaceAll("\\R", " ");
    }

    private static String reason(FileSystemException e) {
        if (e.getReason() != null) {
            return e.getReason();
        }
        if (e instanceof AccessDeniedException) {
            return "permission denied";
        }
        if (e instanceof NoSuchFileException) {
            return "no such file or directory";
        }
        if (e instanceof NotDirectoryException) {
            return "not a directory";
        }
        if (e instanceof FileAlreadyExistsException) {
            return "a file of that name is in the way";
        }
        return "the file system refused (" + e.getClass().getSimpleName() + ")";
    }

    private static <T extends Throwable> T find(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        return null;
    }
}
