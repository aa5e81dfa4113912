/** The storage contract as a JUnit 5 test class that backend authors extend. */
module org.storeservice.testkit {
    requires transitive org.storeservice.api;
    requires transitive org.junit.jupiter.api;
    exports org.storeservice.testkit;
    // JUnit calls the contract's (package-private) test methods reflectively.
    opens org.storeservice.testkit to org.junit.platform.commons;
}
