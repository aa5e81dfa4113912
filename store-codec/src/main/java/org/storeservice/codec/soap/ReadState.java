package org.storeservice.codec.soap;

/** Where a {@link SoapCall} is in the document; each state names what its next step reads. */
enum ReadState {
    /** Before the root element: the prolog. */
    PROLOG,
    /** Inside the Envelope, before the Body: headers and anything else. */
    ENVELOPE,
    /** At the Body's start tag: the operation and its wrapper are next. */
    BODY,
    /** Inside the operation wrapper: its parameters. */
    PARAMETERS,
    /** Stopped inside {@code <content>}, which the store reads through {@link StreamedContent}. */
    CONTENT,
    /** After the wrapper (or without one): the rest of the document. */
    REST,
    /** The whole document was read and is well-formed. */
    DONE
}
