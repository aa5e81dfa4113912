package org.storeservice.jetty;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.RequestLog;
import org.eclipse.jetty.server.Server;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.StoreLimits;
import org.storeservice.api.storage.Storage;
import org.storeservice.codec.StoreCodec;

/**
 * Every option of a {@link StoreServer} with its default, beyond those every front door shares ({@link FrontDoorSettings}): what {@link StoreServer.Builder} checks and writes, and
 * what the server and its assembly ({@link EndpointJetty}, {@link EndpointConnectors}) read. A server holds its
 * own {@link #copy()}, which nothing writes after {@link StoreServer.Builder#build()}.
 */
final class ServerSettings extends FrontDoorSettings {
    String endpointPath = StoreCodec.DEFAULT_ENDPOINT_PATH;
    /**
     * The codec's own options (namespace, limits, protocols, WSDL, observer), each passed on as given, in order, to
     * the codec's builder when the server starts: the codec needs the store, which exists only once the storage
     * is open. So the codec alone holds their defaults and checks.
     */
    Consumer<StoreCodec.Builder> codecOptions = codec -> { };
    /** The host's storage, never closed by the server; or null, and then {@link #storageUri} is opened. */
    Storage storage;
    String storageUri;
    StoreLimits storeLimits = StoreLimits.defaults();
    OverwritePolicy overwritePolicy = OverwritePolicy.REPLACE;
    long minRequestDataRate = StoreHandler.DEFAULT_MIN_REQUEST_DATA_RATE;
    RequestLog.Writer accessLog;
    BasicUsers users;
    String realm = "Store";
    boolean publicMetadata;
    AddressRanges allowFrom;
    Duration readinessTimeout = StoreServer.DEFAULT_READINESS_TIMEOUT;
    Consumer<Server> jettyCustomizer;

    /** A copy that later changes to this one do not reach (the password is copied too, as the host may wipe its array). */
    ServerSettings copy() {
        ServerSettings copy = new ServerSettings();
        copyTo(copy);
        copy.endpointPath = endpointPath;
        copy.codecOptions = codecOptions; // immutable: each option makes a new chain
        copy.storage = storage;
        copy.storageUri = storageUri;
        copy.storeLimits = storeLimits;
        copy.overwritePolicy = overwritePolicy;
        copy.minRequestDataRate = minRequestDataRate;
        copy.accessLog = accessLog;
        copy.users = users;
        copy.realm = realm;
        copy.publicMetadata = publicMetadata;
        copy.allowFrom = allowFrom;
        copy.readinessTimeout = readinessTimeout;
        copy.jettyCustomizer = jettyCustomizer;
        return copy;
    }
}
