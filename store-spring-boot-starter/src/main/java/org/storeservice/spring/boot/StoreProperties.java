package org.storeservice.spring.boot;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;
import org.storeservice.api.OverwritePolicy;
import org.storeservice.api.StoreLimits;
import org.storeservice.codec.CodecLimits;
import org.storeservice.codec.Protocols;

/**
 * The {@code store.*} properties of the Store endpoint. The defaults are those of the ready server and the
 * codec; the Javadoc of each field is what an IDE shows for the property.
 */
@ConfigurationProperties("store")
public class StoreProperties {
    /** Whether to serve the Store endpoint. */
    private boolean enabled = true;

    /**
     * Path of the endpoint inside the application's context path (server.servlet.context-path). The HTTP GET
     * and POST operations are below it, e.g. /API/Store.asmx/WriteString.
     */
    private String path = "/API/Store.asmx";

    /**
     * Where entries are kept, as a storage URI: sqlite:FILE (embedded, durable; a relative path is relative to
     * the working directory), jdbc:postgresql://HOST/DB?user=...&password=..., memory: (lost on exit), or any
     * backend on the class path. Not used when the application defines a Storage or Store bean.
     */
    private String storage = "sqlite:data/store.db";

    /** XML namespace of the service, in its WSDL and messages, as ASMX's [WebService(Namespace)]. */
    private String namespace = "http://tempuri.org/";

    /**
     * Protocols on, as web.config's <webServices><protocols>, by ASMX's names: HttpSoap, HttpSoap12, HttpGet,
     * HttpPost, HttpPostLocalhost (form POSTs from this machine only), Documentation (help pages, WSDL, disco).
     * One left out answers as ASMX answers it removed, and the WSDL and help pages leave it out.
     */
    private List<String> protocols = new ArrayList<>(List.of(
            "HttpSoap", "HttpSoap12", "HttpGet", "HttpPost", "HttpPostLocalhost", "Documentation"));

    /** What a write to a key that already holds a value does: REPLACE (last write wins) or REJECT (Error). */
    private OverwritePolicy overwritePolicy = OverwritePolicy.REPLACE;

    /**
     * On shutdown, how long the web server goes on serving after readiness turned to refusing traffic, before its
     * graceful shutdown stops taking connections: set it above a load balancer's check interval times the failures it
     * needs to take a server out (5s for HAProxy's {@code inter 1s fall 2}). None by default: without a balancer
     * checking readiness it would only delay every shutdown.
     */
    private java.time.Duration drainTime = java.time.Duration.ZERO;

    private final Limits limits = new Limits();

    private final Health health = new Health();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public String getPath() {
        return path;
    }

    public void setPath(String path) {
        this.path = path;
    }

    public String getStorage() {
        return storage;
    }

    public void setStorage(String storage) {
        this.storage = storage;
    }

    public String getNamespace() {
        return namespace;
    }

    public void setNamespace(String namespace) {
        this.namespace = namespace;
    }

    public List<String> getProtocols() {
        return protocols;
    }

    public void setProtocols(List<String> protocols) {
        this.protocols = protocols;
    }

    /** {@link #getProtocols()} as the codec's value; an unknown name is an IllegalArgumentException naming it. */
    public Protocols toProtocols() {
        return Protocols.parse(String.join(",", protocols));
    }

    public OverwritePolicy getOverwritePolicy() {
        return overwritePolicy;
    }

    public void setOverwritePolicy(OverwritePolicy overwritePolicy) {
        this.overwritePolicy = overwritePolicy;
    }

    public java.time.Duration getDrainTime() {
        return drainTime;
    }

    public void setDrainTime(java.time.Duration drainTime) {
        this.drainTime = drainTime;
    }

    public Limits getLimits() {
        return limits;
    }

    public Health getHealth() {
        return health;
    }

    /** Every limit on a request and on what is stored; each default says which attack it stops. */
    public static class Limits {
        /**
         * Largest accepted request body, ASMX's maxRequestLength: stops a client from exhausting memory or disk
         * with one huge request. Checked on Content-Length and counted while reading.
         */
        private DataSize maxRequestBytes = DataSize.ofMegabytes(4);

        /** Deepest element nesting of a SOAP request (a call needs 4): stops stack and CPU exhaustion. */
        private int maxElementDepth = 64;

        /** Most attributes on one element: stops hash-collision and quadratic duplicate-check attacks. */
        private int maxAttributesPerElement = 64;

        /** Longest attribute value, in chars: stops a huge attribute from being built in memory. */
        private int maxAttributeValueLength = 65536;

        /**
         * Longest key, value, comment or processing instruction in a SOAP request, in chars: stops a huge string
         * from being built in memory when max-request-bytes is raised. Streamed content is not counted.
         */
        private int maxTextLength = 4194304;

        /** Most elements in a SOAP request (a call needs 5): stops a flood of tiny elements. */
        private int maxElementCount = 10000;

        /**
         * Most distinct parameter names in an HTTP GET query or POST form, ASP.NET's MaxHttpCollectionKeys:
         * stops hash flooding by many parameters.
         */
        private int maxParameterNames = 1000;

        /**
         * In-memory part of content sent before its key, which must be kept until the key is known; beyond it
         * the content goes to a temporary file, so out-of-order requests cannot exhaust the heap.
         */
        private DataSize spoolMemoryBytes = DataSize.ofKilobytes(96);

        /** Longest accepted key, in UTF-16 chars; a longer key gets Error and nothing is stored. */
        private int maxKeyLength = 512;

        /** Largest accepted value (UTF-8 bytes of text, raw bytes of content); a larger one gets Error. */
        private DataSize maxValueBytes = DataSize.ofMegabytes(4);

        /** These limits as the codec's. */
        public CodecLimits toCodecLimits() {
            return CodecLimits.builder()
                    .maxRequestBytes(maxRequestBytes.toBytes())
                    .maxElementDepth(maxElementDepth)
                    .maxAttributesPerElement(maxAttributesPerElement)
                    .maxAttributeValueLength(maxAttributeValueLength)
                    .maxTextLength(maxTextLength)
                    .maxElementCount(maxElementCount)
                    .maxParameterNames(maxParameterNames)
                    .spoolMemoryBytes(Math.toIntExact(spoolMemoryBytes.toBytes()))
                    .build();
        }

        /** These limits as the store's. */
        public StoreLimits toStoreLimits() {
            return StoreLimits.builder().maxKeyLength(maxKeyLength).maxValueBytes(maxValueBytes.toBytes()).build();
        }

        public DataSize getMaxRequestBytes() {
            return maxRequestBytes;
        }

        public void setMaxRequestBytes(DataSize maxRequestBytes) {
            this.maxRequestBytes = maxRequestBytes;
        }

        public int getMaxElementDepth() {
            return maxElementDepth;
        }

        public void setMaxElementDepth(int maxElementDepth) {
            this.maxElementDepth = maxElementDepth;
        }

        public int getMaxAttributesPerElement() {
            return maxAttributesPerElement;
        }

        public void setMaxAttributesPerElement(int maxAttributesPerElement) {
            this.maxAttributesPerElement = maxAttributesPerElement;
        }

        public int getMaxAttributeValueLength() {
            return maxAttributeValueLength;
        }

        public void setMaxAttributeValueLength(int maxAttributeValueLength) {
            this.maxAttributeValueLength = maxAttributeValueLength;
        }

        public int getMaxTextLength() {
            return maxTextLength;
        }

        public void setMaxTextLength(int maxTextLength) {
            this.maxTextLength = maxTextLength;
        }

        public int getMaxElementCount() {
            return maxElementCount;
        }

        public void setMaxElementCount(int maxElementCount) {
            this.maxElementCount = maxElementCount;
        }

        public int getMaxParameterNames() {
            return maxParameterNames;
        }

        public void setMaxParameterNames(int maxParameterNames) {
            this.maxParameterNames = maxParameterNames;
        }

        public DataSize getSpoolMemoryBytes() {
            return spoolMemoryBytes;
        }

        public void setSpoolMemoryBytes(DataSize spoolMemoryBytes) {
            this.spoolMemoryBytes = spoolMemoryBytes;
        }

        public int getMaxKeyLength() {
            return maxKeyLength;
        }

        public void setMaxKeyLength(int maxKeyLength) {
            this.maxKeyLength = maxKeyLength;
        }

        public DataSize getMaxValueBytes() {
            return maxValueBytes;
        }

        public void setMaxValueBytes(DataSize maxValueBytes) {
            this.maxValueBytes = maxValueBytes;
        }
    }

    /** The storage health check, when Actuator is present. */
    public static class Health {
        /** How long the health check's probe read may take before the storage counts as down. */
        private Duration timeout = Duration.ofSeconds(2);

        public Duration getTimeout() {
            return timeout;
        }

        public void setTimeout(Duration timeout) {
            this.timeout = timeout;
        }
    }
}
