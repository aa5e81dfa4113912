package org.storeservice.codec;

/**
 * Told of every request a {@link StoreCodec} answers, once its answer is ready: the seam for metrics
 * ({@code store-micrometer}'s {@code StoreMetrics}) without a metrics library in the codec. Set with
 * {@link StoreCodec.Builder#observer}; without one the codec reads no clock and counts nothing.
 *
 * <p>Called on the thread that called {@link StoreCodec#handle}, which may be one that must not block: an
 * observer must be quick and thread-safe, and must not block. What it throws is logged and otherwise ignored.
 */
@FunctionalInterface
public interface RequestObserver {
    /**
     * Told of one answered request.
     *
     * @param request what it was and how it ended
     */
    void completed(CompletedRequest request);
}
