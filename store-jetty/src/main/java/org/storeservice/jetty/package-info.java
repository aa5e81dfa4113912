/**
 * The Jetty 12 adapter, on Jetty's core {@code Handler} API (no servlets).
 *
 * <p>{@link org.storeservice.jetty.StoreHandler} serves a {@link org.storeservice.codec.StoreCodec} at its endpoint
 * path inside a host's own Jetty server and declines every other path; it reads bodies without a thread waiting for
 * the client and answers small writes on the selector thread. {@link org.storeservice.jetty.StoreServer} is a whole
 * server around it, configured by its {@link org.storeservice.jetty.StoreServer.Builder}: HTTP or HTTPS, storage by
 * instance or URI, limits, time-outs, a stop in stages, and the operators' handlers ({@link
 * org.storeservice.jetty.BasicAuthHandler} with {@link org.storeservice.jetty.BasicUsers},
 * {@link org.storeservice.jetty.AllowListHandler} with {@link org.storeservice.jetty.AddressRanges},
 * {@link org.storeservice.jetty.TrustedProxyCustomizer}, a management port for metrics and health).
 */
package org.storeservice.jetty;
