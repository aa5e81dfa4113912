/** The HTTP GET and POST bindings ({@code /API/Store.asmx/WriteString?key=...}): URL-encoded parameters in, {@code <Status>} out. */
package org.storeservice.codec.http;
