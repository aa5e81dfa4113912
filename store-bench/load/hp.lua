-- (f) HTTP POST WriteString, 40-character value: POST <wrk URL path>/WriteString, form body key=K&value=V.
-- usage: wrk -t2 -c32 -d10s --timeout 10s -s hp.lua http://127.0.0.1:PORT/API/Store.asmx
HTTP_SCENARIO = { method = "POST", value_len = 40, pool = 1000 }
local dir = debug.getinfo(1, "S").source:match("^@(.*)/[^/]*$") or "."
dofile(dir .. "/httpcommon.lua")
