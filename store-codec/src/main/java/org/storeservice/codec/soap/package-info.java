/** SOAP 1.1 and 1.2: the request reader (a state machine over the parser), the streamed content, faults and responses. */
package org.storeservice.codec.soap;
