/** What every binding shares: operations, Content-Type and URL decoding, escaping, the size-limited body, the hardened parser factory, error pages. */
package org.storeservice.codec.wire;
