package org.storeservice.jdbc;

/** SQLite's {@code PRAGMA synchronous} in WAL mode: what a returned write survives. */
public enum Synchronous {
    /** The WAL is fsynced at every commit: a write that returned survives a power cut or OS crash. The default. */
    FULL,
    /**
     * The WAL is fsynced only at checkpoints: a write that returned survives a crash of the process, but
     * the last commits may be lost in a power cut or OS crash (the database stays consistent). Faster.
     */
    NORMAL
}
