package org.storeservice.codec.http;

import org.storeservice.codec.wire.Operation;

/**
 * A decoded HTTP GET or POST call. HTTP cannot express {@code null}, so {@code key} and {@code value} are
 * never null once decoded; {@code value} is unused by WriteBytes and {@code content} by WriteString.
 */
record HttpCall(Operation operation, String key, String value, byte[] content) {
}
