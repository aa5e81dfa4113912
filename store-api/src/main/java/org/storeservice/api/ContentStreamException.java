package org.storeservice.api;

import java.io.IOException;

/**
 * Thrown by {@link Store#writeBytes(String, java.io.InputStream)} when reading the caller's content
 * stream failed. It is not a storage failure: the caller's input was broken or unreadable, so the
 * caller decides how to answer (a wire codec answers with a client error). Nothing was stored.
 */
public final class ContentStreamException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception for the content's own failure.
     *
     * @param cause how reading the content failed; its message becomes this exception's
     */
    public ContentStreamException(IOException cause) {
        super(cause.getMessage(), cause);
    }

    @Override
    public synchronized IOException getCause() {
        return (IOException) super.getCause();
    }
}
