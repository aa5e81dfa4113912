package org.storeservice.codec.soap;

/** A SOAP fault code, named as in SOAP 1.1; {@link SoapVersion#codeName} gives each version's name. */
enum FaultCode {
    CLIENT,
    SERVER,
    MUST_UNDERSTAND,
    VERSION_MISMATCH
}
