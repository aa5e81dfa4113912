"""Python's zeep, as a legacy Python application would call the service, through one port of the WSDL.

Usage: python3 zeep_client.py WSDL_URL PORT KEY_PREFIX TEXT_UTF8_HEX BYTES_HEX SOAP_ENCODING_XSD
PORT is a port of service Store: StoreSoap, StoreSoap12, StoreHttpGet or StoreHttpPost.
Prints one line per call: "<operation> <result>", or "<operation> Fault: <first line of the answer>" when
the server refused it. Values arrive as hex so that no locale alters them.

The WSDL's AbstractTypes schema imports http://schemas.xmlsoap.org/soap/encoding/ without a location, and
zeep then fetches that URL. These tests run offline: the schema is put into the transport's cache first
(zeep's documented cache API), so zeep finds it there; and the transport refuses to load any document but
the server's own, so a fetch from elsewhere fails the run even where the network is reachable.
"""
import sys

from zeep import Client
from zeep.exceptions import Fault
from zeep.cache import InMemoryCache
from zeep.transports import Transport

SOAP_ENCODING = "http://schemas.xmlsoap.org/soap/encoding/"


class ServerOnlyTransport(Transport):
    """Loads documents (WSDL, schemas) from the server under test only; the cache answers before this."""

    def __init__(self, origin, **kwargs):
        super().__init__(**kwargs)
        self.origin = origin

    def _load_remote_data(self, url):
        if not url.startswith(self.origin):
            raise RuntimeError("refusing to fetch %s: these tests run offline" % url)
        return super()._load_remote_data(url)


def main(wsdl, port, prefix, text_hex, bytes_hex, encoding_xsd):
    cache = InMemoryCache()
    with open(encoding_xsd, "rb") as schema:
        cache.add(SOAP_ENCODING, schema.read())
    origin = wsdl[: wsdl.index("/", len("http://"))] + "/"
    transport = ServerOnlyTransport(origin, cache=cache, timeout=10, operation_timeout=10)
    client = Client(wsdl, transport=transport)
    service = client.bind("Store", port)

    text = bytes.fromhex(text_hex).decode("utf-8")
    content = bytes.fromhex(bytes_hex)
    if port in ("StoreHttpGet", "StoreHttpPost"):
        # The HTTP ports take byte[] as s1:StringArray: one decimal `content` field per byte.
        content = list(content)

    call(service.WriteString, "WriteString", key=prefix + "-text", value=text)
    call(service.WriteBytes, "WriteBytes", key=prefix + "-bytes", content=content)


def call(operation, name, **parameters):
    try:
        print(name, operation(**parameters))
    except Fault as fault:
        # HTTP bindings: zeep passes the error body (bytes) as the message; SOAP: the faultstring.
        message = fault.message.decode("utf-8") if isinstance(fault.message, bytes) else fault.message
        print(name, "Fault:", message.splitlines()[0])


if __name__ == "__main__":
    main(*sys.argv[1:])
