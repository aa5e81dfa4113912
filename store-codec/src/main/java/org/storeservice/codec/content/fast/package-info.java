/** The large-content fast path: a leading run of plain base64 decoded straight from the request bytes; entered only through {@link org.storeservice.codec.content.fast.ContentFastPath}. */
package org.storeservice.codec.content.fast;
