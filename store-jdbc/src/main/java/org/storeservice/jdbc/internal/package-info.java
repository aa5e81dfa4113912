/**
 * What both engines share, and no API: the write queue and its promise that every write is answered once, the write
 * path, rows and statements, spooled values, key order, table names, the schema version. Not exported by the module;
 * its types are public only so that {@code org.storeservice.jdbc.sqlite} and {@code org.storeservice.jdbc.postgres}
 * can use them.
 */
package org.storeservice.jdbc.internal;
