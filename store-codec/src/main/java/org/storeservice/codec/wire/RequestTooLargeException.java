package org.storeservice.codec.wire;

import java.io.IOException;
import org.storeservice.codec.CodecLimits;

/** The request body is larger than {@link CodecLimits#maxRequestBytes()}; ASMX's "Maximum request length exceeded." */
public final class RequestTooLargeException extends IOException {
    private static final long serialVersionUID = 1L;

    public static final String MESSAGE = "Maximum request length exceeded.";

    RequestTooLargeException() {
        super(MESSAGE);
    }
}
