/**
 * The Jakarta Servlet 6 adapter: {@link org.storeservice.servlet.StoreServlet} serves a
 * {@link org.storeservice.codec.StoreCodec} in any servlet container, reading bodies with Servlet async I/O, and
 * {@link org.storeservice.servlet.StoreServlet#register} maps it at the endpoint path.
 */
package org.storeservice.servlet;
