package org.storeservice.api.storage;

/** How an entry was written: by WriteString or by WriteBytes. */
public enum EntryKind {
    /** Written by WriteString; the value is text. */
    TEXT,
    /** Written by WriteBytes; the value is bytes. */
    BYTES
}
