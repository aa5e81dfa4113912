package org.storeservice.codec;

import java.io.IOException;

/** The request body is larger than {@link CodecLimits#maxRequestBytes()}; ASMX's "Maximum request length exceeded." */
final class RequestTooLargeException extends IOException {
    private static final long serialVersionUID = 1L;

    static final String MESSAGE = "Maximum request length exceeded.";

    RequestTooLargeException() {
        super(MESSAGE);
    }
}
