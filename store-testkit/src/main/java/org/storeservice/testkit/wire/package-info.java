/**
 * The endpoint's wire cases for any host: extend {@link org.storeservice.testkit.wire.EndpointWireTest}, start
 * your server, and every binding, fault, metadata page and limit is checked against it over real HTTP.
 */
package org.storeservice.testkit.wire;
