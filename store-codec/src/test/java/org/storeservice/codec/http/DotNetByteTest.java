package org.storeservice.codec.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** .NET's Byte.Parse, as the HTTP bindings convert each {@code content} value. */
class DotNetByteTest {

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {"0|0", "255|255", "' 5 '|5", "+5|5", "-0|0", "007|7", "'\t9\r\n'|9", "'12\u0000\u0000'|12"})
    void byteParseAcceptsWhatDotNetAccepts(String text, int expected) throws HttpError {
        assertEquals((byte) expected, DotNetByte.parse(text));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "abc|Input string was not in a correct format.",
        "''|Input string was not in a correct format.",
        "' '|Input string was not in a correct format.",
        "0x1|Input string was not in a correct format.",
        "1e2|Input string was not in a correct format.",
        "5-|Input string was not in a correct format.",
        "+-5|Input string was not in a correct format.",
        "\u0661|Input string was not in a correct format.",
        "256|Value was either too large or too small for an unsigned byte.",
        "-1|Value was either too large or too small for an unsigned byte.",
        "99999999999|Value was either too large or too small for an unsigned byte. ---> Value was either too large or too small for an Int32."})
    void byteParseRejectsWithDotNetMessages(String text, String cause) {
        HttpError error = assertThrows(HttpError.class, () -> DotNetByte.parse(text));
        assertEquals("Cannot convert " + text + " to System.Byte.\r\nParameter name: type ---> " + cause, error.text());
    }
}
