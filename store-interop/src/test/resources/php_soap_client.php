<?php
// PHP's SoapClient in WSDL mode, as a legacy PHP application would call the service.
// Usage: php php_soap_client.php WSDL_URL 1.1|1.2 KEY_PREFIX TEXT_UTF8_HEX BYTES_HEX
// Prints one line per call: "<operation> <result>", then the Content-Type the last request was sent with.
// Values arrive as hex so that no locale or shell can alter them on the way.
[, $wsdl, $version, $prefix, $textHex, $bytesHex] = $argv;

$client = new SoapClient($wsdl, [
    'soap_version' => $version === '1.2' ? SOAP_1_2 : SOAP_1_1,
    'cache_wsdl' => WSDL_CACHE_NONE, // every test server has a new port; never reuse a cached WSDL
    'exceptions' => true,
    'trace' => true,
    'connection_timeout' => 10,
]);

$text = $client->WriteString(['key' => $prefix . '-text', 'value' => hex2bin($textHex)]);
echo 'WriteString ', $text->WriteStringResult, "\n";
$bytes = $client->WriteBytes(['key' => $prefix . '-bytes', 'content' => hex2bin($bytesHex)]);
echo 'WriteBytes ', $bytes->WriteBytesResult, "\n";
foreach (explode("\n", $client->__getLastRequestHeaders()) as $header) {
    if (stripos($header, 'Content-Type:') === 0) {
        echo trim($header), "\n";
    }
}
