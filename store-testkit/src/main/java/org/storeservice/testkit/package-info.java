/**
 * The storage contract test kit: extend {@link org.storeservice.testkit.StorageContractTest} to check a
 * {@link org.storeservice.api.storage.Storage} backend against the SPI's promises.
 */
package org.storeservice.testkit;
