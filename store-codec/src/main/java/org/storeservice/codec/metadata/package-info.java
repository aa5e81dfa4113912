/** The metadata pages a GET of the endpoint answers: the WSDL, the disco document and the help pages. */
package org.storeservice.codec.metadata;
