// What the ASMX fixture stored, for the test to read back through Entries.ashx.
using System.Collections.Concurrent;
using System.Collections.Generic;

public static class Entries
{
    static readonly ConcurrentDictionary<string, KeyValuePair<string, byte[]>> entries =
        new ConcurrentDictionary<string, KeyValuePair<string, byte[]>>();

    public static void Put(string key, string kind, byte[] value)
    {
        entries[key] = new KeyValuePair<string, byte[]>(kind, value);
    }

    public static IEnumerable<KeyValuePair<string, KeyValuePair<string, byte[]>>> All()
    {
        return entries;
    }
}
