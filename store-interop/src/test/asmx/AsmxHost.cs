// A minimal ASP.NET host for the tests: HttpListener in front, Mono's System.Web (the ASMX runtime) behind it, in the
// application's own AppDomain, as Cassini and xsp host it. Debian bookworm's xsp4 (4.2-2.4) cannot start on the
// Mono 6.8 it ships: xsp4.exe's Mono.WebServer.XSP.Server and XSPWebSource reference Mono.Security.Protocol.Tls
// types that Mono 6's Mono.Security no longer has (TypeLoadException at start), so this replaces its server part.
// Usage: mono AsmxHost.exe PORT ROOT (this program must also be in ROOT/bin, where ASP.NET loads its host type).
using System;
using System.Collections.Generic;
using System.IO;
using System.Net;
using System.Text;
using System.Threading;
using System.Web;
using System.Web.Hosting;

[Serializable]
public sealed class WireRequest {
    public string Verb, RawUrl, Path, Query, Version, RemoteAddress, LocalAddress;
    public int RemotePort, LocalPort;
    public string[] HeaderNames, HeaderValues;
    public byte[] Body;
}

[Serializable]
public sealed class WireResponse {
    public int Status;
    public string Reason;
    public List<string> HeaderNames = new List<string>(), HeaderValues = new List<string>();
    public byte[] Body;
}

public sealed class AspNetDomain : MarshalByRefObject {
    public override object InitializeLifetimeService() { return null; }

    public WireResponse Process(WireRequest request) {
        var worker = new Worker(request);
        HttpRuntime.ProcessRequest(worker);
        // Mono's HttpRuntime swallows a failure of the application's start (an assembly the configuration names and
        // the machine lacks) and never ends the request: answer that, rather than hold the caller for ever.
        if (!worker.Ended.WaitOne(TimeSpan.FromSeconds(60))) {
            return new WireResponse {
                Status = 500, Reason = "Not Ended",
                Body = Encoding.UTF8.GetBytes("ASP.NET did not end the request within 60 s; mono --trace=E:all shows why"),
            };
        }
        return worker.Response;
    }
}

sealed class Worker : SimpleWorkerRequest {
    readonly WireRequest request;
    readonly MemoryStream body = new MemoryStream();
    public readonly WireResponse Response = new WireResponse();
    public readonly ManualResetEvent Ended = new ManualResetEvent(false);
    readonly string filePath, pathInfo;

    public Worker(WireRequest request) : base(request.Path.TrimStart('/'), request.Query, TextWriter.Null) {
        this.request = request;
        int end = request.Path.IndexOf(".asmx", StringComparison.OrdinalIgnoreCase);
        filePath = end < 0 ? request.Path : request.Path.Substring(0, end + 5);
        pathInfo = end < 0 ? "" : request.Path.Substring(end + 5);
    }

    public override string GetHttpVerbName() { return request.Verb; }
    public override string GetHttpVersion() { return request.Version; }
    public override string GetRawUrl() { return request.RawUrl; }
    public override string GetUriPath() { return request.Path; }
    public override string GetFilePath() { return filePath; }
    public override string GetPathInfo() { return pathInfo; }
    public override string GetFilePathTranslated() { return HttpRuntime.AppDomainAppPath + filePath.TrimStart('/').Replace('/', Path.DirectorySeparatorChar); }
    public override string GetQueryString() { return request.Query; }
    public override byte[] GetQueryStringRawBytes() { return Encoding.ASCII.GetBytes(request.Query ?? ""); }
    public override string GetRemoteAddress() { return request.RemoteAddress; }
    public override int GetRemotePort() { return request.RemotePort; }
    public override string GetLocalAddress() { return request.LocalAddress; }
    public override int GetLocalPort() { return request.LocalPort; }
    public override string GetServerName() { return request.LocalAddress; }

    public override string GetKnownRequestHeader(int index) {
        return Header(GetKnownRequestHeaderName(index));
    }
    public override string GetUnknownRequestHeader(string name) { return Header(name); }
    public override string[][] GetUnknownRequestHeaders() {
        var unknown = new List<string[]>();
        for (int i = 0; i < request.HeaderNames.Length; i++) {
            if (GetKnownRequestHeaderIndex(request.HeaderNames[i]) < 0) {
                unknown.Add(new[] { request.HeaderNames[i], request.HeaderValues[i] });
            }
        }
        return unknown.ToArray();
    }
    string Header(string name) {
        for (int i = 0; i < request.HeaderNames.Length; i++) {
            if (string.Equals(request.HeaderNames[i], name, StringComparison.OrdinalIgnoreCase)) return request.HeaderValues[i];
        }
        return null;
    }

    public override byte[] GetPreloadedEntityBody() { return request.Body; }
    public override int GetPreloadedEntityBodyLength() { return request.Body.Length; }
    public override bool IsEntireEntityBodyIsPreloaded() { return true; }
    public override int GetTotalEntityBodyLength() { return request.Body.Length; }
    public override int ReadEntityBody(byte[] buffer, int size) { return 0; }

    public override void SendStatus(int status, string reason) { Response.Status = status; Response.Reason = reason; }
    public override void SendKnownResponseHeader(int index, string value) {
        SendUnknownResponseHeader(GetKnownResponseHeaderName(index), value);
    }
    public override void SendUnknownResponseHeader(string name, string value) {
        Response.HeaderNames.Add(name); Response.HeaderValues.Add(value);
    }
    public override void SendResponseFromMemory(byte[] data, int length) { body.Write(data, 0, length); }
    public override void SendResponseFromFile(string filename, long offset, long length) {
        using (var file = File.OpenRead(filename)) { file.Seek(offset, SeekOrigin.Begin); var b = new byte[length]; file.Read(b, 0, (int) length); body.Write(b, 0, b.Length); }
    }
    public override void SendResponseFromFile(IntPtr handle, long offset, long length) { throw new NotSupportedException(); }
    public override void FlushResponse(bool finalFlush) { }
    public override void EndOfRequest() { Response.Body = body.ToArray(); Ended.Set(); }
}

public static class AsmxHost {
    public static int Main(string[] args) {
        int port = int.Parse(args[0]);
        string root = Path.GetFullPath(args[1]);
        var domain = (AspNetDomain) ApplicationHost.CreateApplicationHost(typeof(AspNetDomain), "/", root);
        var listener = new HttpListener();
        listener.Prefixes.Add("http://127.0.0.1:" + port + "/");
        listener.Start();
        Console.WriteLine("listening on http://127.0.0.1:" + port + "/");
        while (true) {
            var context = listener.GetContext();
            ThreadPool.QueueUserWorkItem(_ => Serve(domain, context));
        }
    }

    static void Serve(AspNetDomain domain, HttpListenerContext context) {
        try {
            var r = context.Request;
            var request = new WireRequest {
                Verb = r.HttpMethod, RawUrl = r.RawUrl, Version = "HTTP/" + r.ProtocolVersion,
                Path = Uri.UnescapeDataString(r.Url.AbsolutePath), Query = r.Url.Query.TrimStart('?'),
                RemoteAddress = r.RemoteEndPoint.Address.ToString(), RemotePort = r.RemoteEndPoint.Port,
                LocalAddress = r.LocalEndPoint.Address.ToString(), LocalPort = r.LocalEndPoint.Port,
                HeaderNames = r.Headers.AllKeys, HeaderValues = Array.ConvertAll(r.Headers.AllKeys, k => r.Headers[k]),
            };
            var body = new MemoryStream();
            r.InputStream.CopyTo(body);
            request.Body = body.ToArray();
            WireResponse response = domain.Process(request);
            var answer = context.Response;
            answer.StatusCode = response.Status;
            answer.StatusDescription = response.Reason;
            for (int i = 0; i < response.HeaderNames.Count; i++) {
                string name = response.HeaderNames[i];
                if (name.Equals("Content-Length", StringComparison.OrdinalIgnoreCase)) continue;
                if (name.Equals("Content-Type", StringComparison.OrdinalIgnoreCase)) { answer.ContentType = response.HeaderValues[i]; continue; }
                answer.AddHeader(name, response.HeaderValues[i]);
            }
            answer.ContentLength64 = response.Body.Length;
            answer.OutputStream.Write(response.Body, 0, response.Body.Length);
            answer.Close();
        } catch (Exception e) {
            Console.Error.WriteLine(e);
            try { context.Response.StatusCode = 500; context.Response.Close(); } catch (Exception) { }
        }
    }
}
