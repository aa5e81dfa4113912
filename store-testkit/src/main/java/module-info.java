/**
 * The storage contract ({@code org.storeservice.testkit}) and the wire cases every host passes
 * ({@code org.storeservice.testkit.wire}), as JUnit test classes that backend and host authors extend.
 */
module org.storeservice.testkit {
    requires transitive org.storeservice.api;
    requires transitive org.junit.jupiter.api;
    requires org.junit.jupiter.params;
    requires transitive java.net.http;
    exports org.storeservice.testkit;
    exports org.storeservice.testkit.wire;
    // JUnit calls the test methods (package-private in the contract) reflectively.
    opens org.storeservice.testkit to org.junit.platform.commons;
    opens org.storeservice.testkit.wire to org.junit.platform.commons;
}
