package org.storeservice.codec.metadata;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.storeservice.codec.Protocol;
import org.storeservice.codec.Protocols;
import org.storeservice.codec.StoreCodec;
import org.storeservice.codec.wire.Operation;

/**
 * The human-readable pages ASMX's {@code DefaultWsdlHelpGenerator.aspx} serves on the bare endpoint:
 * the service page (operation list, link to the WSDL, the tempuri.org advice) and one page per operation
 * ({@code ?op=WriteString}: a test form when every parameter is a primitive, then sample SOAP 1.1,
 * SOAP 1.2, HTTP GET and HTTP POST exchanges). Same sections, wording and samples as ASMX, but written as
 * valid polyglot HTML5 (also well-formed XML): no {@code <font>}, all styling in one inline style sheet,
 * nothing loaded from elsewhere, every configured or client-supplied value escaped.
 *
 * <p>Templates are built once; only the address and host (from the request) are filled per page. Immutable.
 */
final class HelpPages {
    static final String SERVICE_NAME = "Store";

    private static final String PAGE_START = """
            <!DOCTYPE html>
            <html xmlns="http://www.w3.org/1999/xhtml" lang="en">
              <head>
                <meta charset="utf-8" />
                <link rel="alternate" type="text/xml" href="{{discoHref}}" />
                <style>
                  body { color: #000000; background-color: white; font-family: Verdana, sans-serif; margin-left: 0px; margin-top: 0px; }
                  #content { margin-left: 30px; font-size: .70em; padding-bottom: 2em; }
                  a:link, a:active { color: #336699; font-weight: bold; text-decoration: underline; }
                  a:visited { color: #6699cc; font-weight: bold; text-decoration: underline; }
                  a:hover { color: #cc3300; font-weight: bold; text-decoration: underline; }
                  p { color: #000000; margin-top: 0px; margin-bottom: 12px; }
                  pre { background-color: #e5e5cc; padding: 5px; font-family: "Courier New", monospace; font-size: x-small; margin-top: -5px; border: 1px #f0f0e0 solid; white-space: pre-wrap; }
                  td { color: #000000; font-size: .7em; padding: 4px; }
                  h2 { font-size: 1.5em; font-weight: bold; margin-top: 25px; margin-bottom: 10px; border-top: 1px solid #003366; margin-left: -15px; color: #003366; }
                  h3 { font-size: 1.1em; color: #000000; margin-left: -15px; margin-top: 10px; margin-bottom: 10px; }
                  ul { margin-top: 10px; margin-left: 20px; }
                  li { margin-top: 10px; color: #000000; }
                  .value { color: darkblue; font-weight: bold; }
                  .key { color: darkgreen; font-weight: bold; }
                  .heading1 { color: #ffffff; font-family: Tahoma, sans-serif; font-size: 26px; font-weight: normal; background-color: #003366; margin: 0px 0px 0px -30px; padding: 10px 0px 3px 15px; }
                  .intro { margin-left: -15px; }
                  .form { border: 1px solid #dcdcdc; border-collapse: collapse; }
                  .frmheader { background: #dcdcdc; border-right: 2px solid white; }
                  .frmtext { font-weight: normal; }
                  .frmInput { font-family: Verdana, sans-serif; font-size: 1em; }
                  .submit { text-align: right; }
                  .button { background-color: #dcdcdc; font-family: Verdana, sans-serif; font-size: 1em; border-top: #cccccc 1px solid; border-bottom: #666666 1px solid; border-left: #cccccc 1px solid; border-right: #666666 1px solid; }
                </style>
                <title>Store Web Service</title>
              </head>
              <body>
                <div id="content">
                  <p class="heading1">Store</p>
                  <br />
            """;

    private static final String PAGE_END = """
                </div>
              </body>
            </html>
            """;

    private static final String OPERATION_LIST = """
                  <div>
                    <p class="intro">The following operations are supported.  For a formal definition, please review the <a href="{{fileName}}?WSDL">Service Description</a>. </p>
                    <ul>
                      <li>
                        <a href="{{fileName}}?op=WriteBytes">WriteBytes</a>
                      </li>
                      <li>
                        <a href="{{fileName}}?op=WriteString">WriteString</a>
                      </li>
                    </ul>
                  </div>
            """;

    private static final String TEMPURI_ADVICE = """
                  <div>
                    <hr />
                    <h3>This web service is using http://tempuri.org/ as its default namespace.</h3>
                    <h3>Recommendation: Change the default namespace before the XML Web service is made public.</h3>
                    <p class="intro">Each XML Web service needs a unique namespace in order for client applications to distinguish it from other services on the Web. http://tempuri.org/ is available for XML Web services that are under development, but published XML Web services should use a more permanent namespace.</p>
                    <p class="intro">Your XML Web service should be identified by a namespace that you control. For example, you can use your company's Internet domain name as part of the namespace. Although many XML Web service namespaces look like URLs, they need not point to actual resources on the Web. (XML Web service namespaces are URIs.)</p>
                    <p class="intro">For XML Web services creating using ASP.NET, the default namespace can be changed using the WebService attribute's Namespace property. The WebService attribute is an attribute applied to the class that contains the XML Web service methods. Below is a code example that sets the namespace to "http://microsoft.com/webservices/":</p>
                    <p class="intro">C#</p>
                    <pre>[WebService(Namespace="http://microsoft.com/webservices/")]
            public class MyWebService {
                // implementation
            }</pre>
                    <p class="intro">Visual Basic</p>
                    <pre>&lt;WebService(Namespace:="http://microsoft.com/webservices/")&gt; Public Class MyWebService
                ' implementation
            End Class</pre>
                    <p class="intro">C++</p>
                    <pre>[WebService(Namespace="http://microsoft.com/webservices/")]
            public ref class MyWebService {
                // implementation
            };</pre>
                    <p class="intro">For more details on XML namespaces, see the W3C recommendation on <a href="http://www.w3.org/TR/REC-xml-names/">Namespaces in XML</a>.</p>
                    <p class="intro">For more details on WSDL, see the <a href="http://www.w3.org/TR/wsdl">WSDL Specification</a>.</p>
                    <p class="intro">For more details on URIs, see <a href="http://www.ietf.org/rfc/rfc2396.txt">RFC 2396</a>.</p>
                  </div>
            """;

    private static final String LINK_BACK = """
                    <p class="intro">Click <a href="{{fileName}}">here</a> for a complete list of operations.</p>
            """;

    private static final String METHOD_NOT_FOUND = """
                  <div>
            """ + LINK_BACK + """
                    <h2>Method not found</h2>
                    <p>The method '{{operation}}' was not found on the service 'Store'.</p>
                  </div>
            """;

    private static final String SAMPLE_TEXT = "The following is a sample %s request and response.  The "
            + "<span class=\"value\">placeholders</span> shown need to be replaced with actual values.";
    private static final String ENUM_VALUE = value("Success") + " or " + value("Error");

    /** A web method as the help generator sees it; {@code primitiveParameters} decides the test form. */
    private record Operation(String name, List<Parameter> parameters, boolean primitiveParameters) {
    }

    /** A parameter: its SOAP sample placeholder, and how often it repeats in HTTP GET/POST samples. */
    private record Parameter(String name, String soapPlaceholder, int httpRepeats) {
    }

    private static final List<Operation> OPERATIONS = List.of(
            new Operation("WriteString",
                    List.of(new Parameter("key", "string", 1), new Parameter("value", "string", 1)), true),
            // byte[] is an s1:StringArray part on HTTP: not primitive (no test form); sampled twice (maxArraySize 2)
            new Operation("WriteBytes",
                    List.of(new Parameter("key", "string", 1), new Parameter("content", "base64Binary", 2)), false));

    private final String serviceList;
    private final Map<String, MetadataTemplate> operationPages;
    /** The pages a local client gets: with HTTP POST (sample and test form) when only HttpPostLocalhost allows it. */
    private final Map<String, MetadataTemplate> localOperationPages;
    private final MetadataTemplate methodNotFound;

    /**
     * Pages for a service in {@code namespace} served at {@code endpointPath} (decoded, e.g. {@code /API/Store.asmx})
     * with {@code protocols} on: an operation page shows the samples of the protocols in the WSDL, and for a
     * local client also HTTP POST when HttpPostLocalhost is on (ASMX's "wsdlsWithPost").
     */
    HelpPages(String namespace, String endpointPath, Protocols protocols) {
        String path = MetadataEscaping.percentEncode(endpointPath, ":@/");
        String fileName = MetadataEscaping.aspNetUrlEncode(endpointPath.substring(endpointPath.lastIndexOf('/') + 1));
        Map<String, String> config = Map.of(
                "discoHref", MetadataEscaping.markup(path + "?disco"),
                "fileName", MetadataEscaping.markup(fileName),
                "path", MetadataEscaping.markup(path),
                // the samples show XML source, so the namespace is escaped for XML, then for HTML
                "tnsInXml", MetadataEscaping.markup(MetadataEscaping.markup(namespace)));

        String list = OPERATION_LIST + (StoreCodec.DEFAULT_NAMESPACE.equals(namespace) ? TEMPURI_ADVICE : "");
        this.serviceList = page(list).bind(config).render(Map.of());
        boolean post = protocols.contains(Protocol.HTTP_POST);
        this.operationPages = operationPages(namespace, config, protocols, post);
        this.localOperationPages = !post && protocols.contains(Protocol.HTTP_POST_LOCALHOST)
                ? operationPages(namespace, config, protocols, true) : operationPages;
        this.methodNotFound = page(METHOD_NOT_FOUND).bind(config);
    }

    private static Map<String, MetadataTemplate> operationPages(String namespace, Map<String, String> config,
            Protocols protocols, boolean post) {
        return OPERATIONS.stream().collect(Collectors.toUnmodifiableMap(Operation::name,
                op -> page(operationContent(op, protocols, post)).bind(config).bind(Map.of(
                        "action", MetadataEscaping.markup(
                                org.storeservice.codec.wire.Operation.byWireName(op.name()).soapAction(namespace))))));
    }

    /** Whether a local client gets other operation pages than a remote one. */
    boolean localPagesDiffer() {
        return localOperationPages != operationPages;
    }

    /** The service page ({@code GET Store.asmx}); the same for every request. */
    String serviceList() {
        return serviceList;
    }

    /** Whether {@code name} is an operation, compared case-sensitively as ASMX does. */
    boolean hasOperation(String name) {
        return operationPages.containsKey(name);
    }

    /**
     * The page of operation {@code name} ({@link #hasOperation} must hold), for a client that reached the
     * endpoint at {@code address} (absolute, percent-encoded) through {@code host}, the sample requests' Host
     * line: the request's Host with its port (a sample copied as it is must reach this server), normalized as
     * the address is; {@code local} if the client is on this machine.
     */
    String operation(String name, String address, String host, boolean local) {
        return (local ? localOperationPages : operationPages).get(name).render(Map.of(
                "address", MetadataEscaping.markup(address), "host", MetadataEscaping.markup(host)));
    }

    /** The page for an unknown {@code ?op=name}: a link back and "Method not found", status 200 in ASMX. */
    String methodNotFound(String name) {
        return methodNotFound.render(Map.of("operation", MetadataEscaping.markup(name)));
    }

    private static MetadataTemplate page(String content) {
        return MetadataTemplate.of((PAGE_START + content + PAGE_END).replace("\n", "\r\n"));
    }

    /** An operation's page content, with the samples of {@code protocols}, HTTP POST's only if {@code post}. */
    private static String operationContent(Operation op, Protocols protocols, boolean post) {
        StringBuilder html = new StringBuilder("      <div>\n").append(LINK_BACK)
                .append("        <h2>").append(op.name()).append("</h2>\n")
                .append("        <h3>Test</h3>\n");
        if (!post) {
            html.append("        <p>The test form is only available for requests from the local machine.</p>\n");
        } else if (op.primitiveParameters()) {
            html.append("        <p>To test the operation using the HTTP POST protocol, click the 'Invoke' button.</p>\n")
                    .append("        <form target=\"_blank\" action=\"{{address}}/").append(op.name())
                    .append("\" method=\"post\" enctype=\"application/x-www-form-urlencoded\">\n")
                    .append("          <table class=\"form\">\n            <tbody>\n")
                    .append("              <tr>\n                <td class=\"frmheader\">Parameter</td>\n")
                    .append("                <td class=\"frmheader\">Value</td>\n              </tr>\n");
            for (Parameter p : op.parameters()) {
                html.append("              <tr>\n                <td class=\"frmtext\">").append(p.name()).append(":</td>\n")
                        .append("                <td><input class=\"frmInput\" type=\"text\" size=\"50\" name=\"")
                        .append(p.name()).append("\" /></td>\n              </tr>\n");
            }
            html.append("              <tr>\n                <td></td>\n")
                    .append("                <td class=\"submit\"><input type=\"submit\" value=\"Invoke\" class=\"button\" /></td>\n")
                    .append("              </tr>\n            </tbody>\n          </table>\n        </form>\n");
        } else {
            html.append("        <p>The test form is only available for methods with primitive types as parameters.</p>\n");
        }
        String soapIn = op.parameters().stream()
                .map(p -> "      " + element(p.name(), value(p.soapPlaceholder())) + "\n")
                .collect(Collectors.joining());
        String soapOut = "      " + element(op.name() + "Result", ENUM_VALUE) + "\n";
        String form = op.parameters().stream()
                .flatMap(p -> Collections.nCopies(p.httpRepeats(), p.name()).stream())
                .map(name -> "<span class=\"key\">" + name + "</span>=" + value("string"))
                .collect(Collectors.joining("&amp;"));
        String httpOut = "HTTP/1.1 200 OK\nContent-Type: text/xml; charset=utf-8\nContent-Length: " + value("length")
                + "\n\n&lt;?xml version=\"1.0\" encoding=\"utf-8\"?&gt;\n&lt;Status xmlns=\"{{tnsInXml}}\"&gt;"
                + ENUM_VALUE + "&lt;/Status&gt;";

        if (protocols.contains(Protocol.HTTP_SOAP)) {
            section(html, "SOAP 1.1",
                    "POST {{path}} HTTP/1.1\nHost: {{host}}\nContent-Type: text/xml; charset=utf-8\nContent-Length: "
                            + value("length") + "\nSOAPAction: \"{{action}}\"\n\n"
                            + envelope("soap", "http://schemas.xmlsoap.org/soap/envelope/", op.name(), soapIn),
                    "HTTP/1.1 200 OK\nContent-Type: text/xml; charset=utf-8\nContent-Length: " + value("length") + "\n\n"
                            + envelope("soap", "http://schemas.xmlsoap.org/soap/envelope/", op.name() + "Response", soapOut));
        }
        if (protocols.contains(Protocol.HTTP_SOAP12)) {
            section(html, "SOAP 1.2",
                    "POST {{path}} HTTP/1.1\nHost: {{host}}\nContent-Type: application/soap+xml; charset=utf-8\n"
                            + "Content-Length: " + value("length") + "\n\n"
                            + envelope("soap12", "http://www.w3.org/2003/05/soap-envelope", op.name(), soapIn),
                    "HTTP/1.1 200 OK\nContent-Type: application/soap+xml; charset=utf-8\nContent-Length: " + value("length")
                            + "\n\n" + envelope("soap12", "http://www.w3.org/2003/05/soap-envelope", op.name() + "Response", soapOut));
        }
        if (protocols.contains(Protocol.HTTP_GET)) {
            section(html, "HTTP GET",
                    "GET {{path}}/" + op.name() + "?" + form + " HTTP/1.1\nHost: {{host}}\n",
                    httpOut);
        }
        if (post) {
            section(html, "HTTP POST",
                    "POST {{path}}/" + op.name() + " HTTP/1.1\nHost: {{host}}\n"
                            + "Content-Type: application/x-www-form-urlencoded\nContent-Length: " + value("length") + "\n\n" + form,
                    httpOut);
        }
        return html.append("      </div>\n").toString();
    }

    private static void section(StringBuilder html, String protocol, String request, String response) {
        html.append("        <h3>").append(protocol).append("</h3>\n")
                .append("        <p>").append(SAMPLE_TEXT.formatted(protocol)).append("</p>\n")
                .append("        <pre>").append(request).append("</pre>\n")
                .append("        <pre>").append(response).append("</pre>\n");
    }

    /** A sample envelope as the help generator prints it: xsi and xsd declared first, two-space indentation. */
    private static String envelope(String prefix, String envelopeNamespace, String wrapper, String children) {
        return "&lt;?xml version=\"1.0\" encoding=\"utf-8\"?&gt;\n"
                + "&lt;" + prefix + ":Envelope xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
                + "xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\" xmlns:" + prefix + "=\"" + envelopeNamespace + "\"&gt;\n"
                + "  &lt;" + prefix + ":Body&gt;\n"
                + "    &lt;" + wrapper + " xmlns=\"{{tnsInXml}}\"&gt;\n"
                + children
                + "    &lt;/" + wrapper + "&gt;\n"
                + "  &lt;/" + prefix + ":Body&gt;\n"
                + "&lt;/" + prefix + ":Envelope&gt;";
    }

    private static String element(String name, String content) {
        return "&lt;" + name + "&gt;" + content + "&lt;/" + name + "&gt;";
    }

    private static String value(String placeholder) {
        return "<span class=\"value\">" + placeholder + "</span>";
    }
}
