-- Shared by hg.lua (HTTP GET WriteString) and hp.lua (HTTP POST WriteString): ASMX's two non-SOAP bindings,
-- GET /API/Store.asmx/WriteString?key=K&value=V and POST .../WriteString with a form body. Same shape as the
-- peer harness's common.lua: each wrk thread builds a pool of ready requests in init() (1000 keys like
-- "k1-1f6cd137", 40-character values) and cycles through them; done() prints the same RESULT line, so
-- compare.sh and summarize.py read these scenarios like the SOAP ones. Drop both files into the harness's
-- load/ directory next to compare.sh. The peers (CXF, Metro, floor) do not serve these bindings.
--
-- The scenario script sets HTTP_SCENARIO = { method = "GET" | "POST", value_len = N, pool = N } first.

local pool, idx = {}, 0

function setup(thread)
  thread_counter = (thread_counter or 0) + 1
  thread:set("tid", thread_counter)
end

local function random_text(n)
  local alnum = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
  local t = {}
  for i = 1, n do local k = math.random(1, #alnum); t[i] = alnum:sub(k, k) end
  return table.concat(t)
end

function init(args)
  local thread_id = tid or 1
  math.randomseed(7919 * thread_id + 17)
  local sc = HTTP_SCENARIO
  local path = wrk.path .. "/WriteString"  -- wrk.path is the URL's path, /API/Store.asmx
  for i = 1, sc.pool do
    local key = string.format("k%d-%08x", thread_id, math.random(0, 0x7fffffff))
    local form = "key=" .. key .. "&value=" .. random_text(sc.value_len)
    if sc.method == "GET" then
      pool[i] = wrk.format("GET", path .. "?" .. form)
    else
      pool[i] = wrk.format("POST", path, { ["Content-Type"] = "application/x-www-form-urlencoded" }, form)
    end
  end
  idx = 0
end

function request()
  idx = idx % #pool + 1
  return pool[idx]
end

function done(summary, latency, requests)
  local e = summary.errors
  local secs = summary.duration / 1e6
  io.write(string.format(
    "RESULT requests=%d duration_s=%.3f rps=%.1f bytes_read=%d lat_mean_us=%.1f lat_p50_us=%d lat_p90_us=%d lat_p99_us=%d lat_max_us=%d err_connect=%d err_read=%d err_write=%d err_status=%d err_timeout=%d\n",
    summary.requests, secs, summary.requests / secs, summary.bytes, latency.mean,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max,
    e.connect, e.read, e.write, e.status, e.timeout))
end
