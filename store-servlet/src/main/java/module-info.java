/** The Jakarta Servlet 6 adapter: {@code StoreServlet}, for any servlet container. */
module org.storeservice.servlet {
    requires transitive org.storeservice.codec;
    // Provided by the container at run time (compile scope "provided"); its types are in StoreServlet's API.
    requires transitive jakarta.servlet;
    requires org.slf4j;

    exports org.storeservice.servlet;
}
