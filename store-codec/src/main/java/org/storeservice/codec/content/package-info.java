/** WriteBytes content: the base64 alphabet and decoder over parser text, and the spool for a content sent before its key. */
package org.storeservice.codec.content;
