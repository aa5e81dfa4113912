<%@ WebService Language="C#" Class="Store" %>
// The service as an ASMX page, served by Mono's ASP.NET (System.Web.Services): a primary for the shadow proxy's
// test against a real ASMX runtime. The contract's two operations, answering Success or Error; kept in memory.
using System.Web.Services;

public enum Status { Success, Error }

[WebService(Namespace = "http://tempuri.org/")]
[WebServiceBinding(ConformsTo = WsiProfiles.BasicProfile1_1)]
public class Store : WebService
{
    [WebMethod]
    public Status WriteString(string key, string value)
    {
        if (string.IsNullOrEmpty(key) || value == null) return Status.Error;
        Entries.Put(key, "text", System.Text.Encoding.UTF8.GetBytes(value));
        return Status.Success;
    }

    [WebMethod]
    public Status WriteBytes(string key, byte[] content)
    {
        if (string.IsNullOrEmpty(key) || content == null) return Status.Error;
        Entries.Put(key, "bytes", content);
        return Status.Success;
    }
}
