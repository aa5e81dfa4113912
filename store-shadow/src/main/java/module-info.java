/**
 * The shadow proxy: {@code ShadowProxy} sends every request to the primary and answers the client with the primary's
 * answer, sends a copy to the shadow, and compares the two answers. Its one package is the API.
 */
module org.storeservice.shadow {
    requires transitive org.storeservice.jetty;
    requires transitive org.eclipse.jetty.client;
    requires org.slf4j;

    exports org.storeservice.shadow;
}
