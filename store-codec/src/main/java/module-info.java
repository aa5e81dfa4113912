/**
 * The ASMX Store service's wire codec: only {@code org.storeservice.codec} ({@code StoreCodec}, {@code CodecRequest},
 * {@code CodecResponse}, {@code CodecLimits}) is API; the bindings' packages are internal and not exported.
 */
module org.storeservice.codec {
    requires transitive org.storeservice.api;
    requires org.slf4j;
    requires java.xml;
    requires org.codehaus.stax2;
    requires com.ctc.wstx;

    exports org.storeservice.codec;
}
