package org.storeservice.codec.content.fast;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.stream.Location;

/**
 * A run of chars cut out of the document before it was parsed (see {@link ContentFastPath}): turns the parser's
 * locations in the shortened document into those of the document as sent, so errors name the same line and
 * position as if the run had been parsed. Locations before the cut are unchanged.
 *
 * @param charOffset where the run was in the shortened document, as a char offset
 * @param line the line where the run was in the shortened document
 * @param column the column where the run was in the shortened document
 * @param chars the run's length in chars
 * @param lineBreaks line breaks in the run
 * @param charsAfterLastLineBreak chars of the run after its last line break
 */
record ElidedRun(long charOffset, int line, int column, long chars, int lineBreaks, long charsAfterLastLineBreak) {
    /** Where Woodstox's UTF-8 decoder says malformed input is: counted in the stream it decoded. */
    private static final Pattern DECODER_POSITION = Pattern.compile("at char #(\\d+), byte #(\\d+)\\)");

    /**
     * Whether {@code at} is after the run in the document as sent. The char just before the cut counts too: at
     * the end of the input the parser names the last char it read, which is the run's last char as sent.
     */
    private boolean moves(Location at) {
        return at.getCharacterOffset() >= charOffset - 1 && chars > 0;
    }

    /** The line in the document as sent. */
    int line(Location at) {
        return moves(at) ? at.getLineNumber() + lineBreaks : at.getLineNumber();
    }

    /** The column in the document as sent. */
    int column(Location at) {
        if (!moves(at) || at.getLineNumber() != line) {
            return at.getColumnNumber();
        }
        long sent = lineBreaks == 0 ? at.getColumnNumber() + chars
                : at.getColumnNumber() - column + charsAfterLastLineBreak + 1;
        return (int) sent; // as the parser's own int column would be
    }

    /**
     * A parser message in terms of the body as sent: the UTF-8 decoder names malformed input by char and byte
     * number in the stream it decoded, which lacks the run. Everything it decodes is after the cut (the bytes
     * before it were decoded whole by the first parser), and the run is ASCII, so both move by its length.
     */
    String message(String message) {
        Matcher position = DECODER_POSITION.matcher(message);
        if (chars == 0 || !position.find()) {
            return message;
        }
        return message.substring(0, position.start()) + "at char #" + (Long.parseLong(position.group(1)) + chars)
                + ", byte #" + (Long.parseLong(position.group(2)) + chars) + ")" + message.substring(position.end());
    }
}
