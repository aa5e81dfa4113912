/**
 * The storage SPI: where a {@link org.storeservice.api.DefaultStore} keeps entries, and how a backend of one's own
 * plugs in.
 *
 * <p>{@link org.storeservice.api.storage.Storage} is the contract (its Javadoc states the rules every backend keeps,
 * which {@code store-testkit}'s {@code StorageContractTest} checks); {@link org.storeservice.api.storage.StoredEntry}
 * an entry as read back. {@link org.storeservice.api.storage.Storages#open(String)} opens a storage by URI through
 * the {@link org.storeservice.api.storage.StorageProvider}s found by {@link java.util.ServiceLoader}:
 * {@code memory:} ({@link org.storeservice.api.storage.MemoryStorage}, here), {@code sqlite:} and
 * {@code jdbc:postgresql:} (store-jdbc), or a scheme of one's own.
 * {@link org.storeservice.api.storage.StorageProbe} answers readiness: whether a write would be stored now.
 */
package org.storeservice.api.storage;
