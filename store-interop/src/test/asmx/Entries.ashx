<%@ WebHandler Language="C#" Class="EntriesHandler" %>
// Every entry the fixture holds, one a line: base64(UTF-8 key) TAB kind TAB base64(value).
using System;
using System.Text;
using System.Web;

public class EntriesHandler : IHttpHandler
{
    public bool IsReusable { get { return true; } }

    public void ProcessRequest(HttpContext context)
    {
        context.Response.ContentType = "text/plain";
        var lines = new StringBuilder();
        foreach (var entry in Entries.All())
        {
            lines.Append(Convert.ToBase64String(Encoding.UTF8.GetBytes(entry.Key))).Append('\t')
                .Append(entry.Value.Key).Append('\t')
                .Append(Convert.ToBase64String(entry.Value.Value)).Append('\n');
        }
        context.Response.Write(lines.ToString());
    }
}
