-- (e) HTTP GET WriteString, 40-character value: GET <wrk URL path>/WriteString?key=K&value=V.
-- usage: wrk -t2 -c32 -d10s --timeout 10s -s hg.lua http://127.0.0.1:PORT/API/Store.asmx
HTTP_SCENARIO = { method = "GET", value_len = 40, pool = 1000 }
local dir = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
dofile(dir .. "/httpcommon.lua")
