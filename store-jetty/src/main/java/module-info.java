/**
 * The Jetty 12 adapter: {@code StoreHandler} (a core {@code Handler} to mount in a host's own server),
 * {@code StoreServer} (a whole server) and the handlers that operate it. Its one package is the API; what is
 * package-private in it (the body exchange, the server's assembly) is not.
 */
module org.storeservice.jetty {
    requires transitive org.storeservice.codec;
    requires transitive org.eclipse.jetty.server;
    requires org.slf4j;

    exports org.storeservice.jetty;
}
