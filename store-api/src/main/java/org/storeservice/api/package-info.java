/**
 * The service's two operations and their answer, independent of any wire format or server.
 *
 * <p>{@link org.storeservice.api.Store} is what every binding calls: {@code writeString(key, value)} and
 * {@code writeBytes(key, content)}, each answering a {@link org.storeservice.api.Status}, {@code Success} or
 * {@code Error}, as the ASMX service did (with the async forms the servers use so that no thread waits for a commit).
 * {@link org.storeservice.api.DefaultStore} is the implementation over a
 * {@link org.storeservice.api.storage.Storage}: it checks the {@link org.storeservice.api.StoreLimits} (key length,
 * value size, well-formed text), applies the {@link org.storeservice.api.OverwritePolicy}, and turns every failure of
 * the storage into {@code Error}, logged once, never thrown at the caller.
 */
package org.storeservice.api;
