-- queryapigate-benchmarks: wrk walks a file of URL paths (one per line), sending the X-API-Key header.
-- wrk ... -s walk.lua URL -- URLFILE KEY MODE     (MODE "count": also count statuses and X-Cache hits;
-- "series": also count the requests sent in every wall-clock second, reported as "series" in the result)
-- Every request string is built once, in init; each thread starts at its own offset in the file.

local requests = {}
local n = 0
local i = 0
local threads = {}
hits, misses, s2, s3, s4, s5 = 0, 0, 0, 0, 0, 0
per_second = {}
local series = false

function setup(thread)
  thread:set("tid", #threads)
  table.insert(threads, thread)
end

function init(args)
  local path, key, mode = args[1], args[2], args[3]
  local headers = { ["X-API-Key"] = key }
  for line in io.lines(path) do
    if #line > 0 then
      n = n + 1
      requests[n] = wrk.format("GET", line, headers)
    end
  end
  i = math.floor(n * (tid or 0) / 8) % n
  series = mode == "series"
  if mode == "count" then
    response = function(status, headers, body)
      if status >= 500 then s5 = s5 + 1 elseif status >= 400 then s4 = s4 + 1
      elseif status >= 300 then s3 = s3 + 1 else s2 = s2 + 1 end
      local x = headers["X-Cache"] or headers["x-cache"]
      if x == "HIT" then hits = hits + 1 elseif x == "MISS" then misses = misses + 1 end
    end
  end
end

function request()
  i = i + 1
  if i > n then i = 1 end
  if series then
    -- closed loop: a request is sent as the previous one on its connection is answered
    local s = os.time()
    per_second[s] = (per_second[s] or 0) + 1
  end
  return requests[i]
end

function done(summary, latency, requests_)
  local h, m, a, b, c, d = 0, 0, 0, 0, 0, 0
  for _, t in ipairs(threads) do
    h = h + (t:get("hits") or 0)
    m = m + (t:get("misses") or 0)
    a = a + (t:get("s2") or 0)
    b = b + (t:get("s3") or 0)
    c = c + (t:get("s4") or 0)
    d = d + (t:get("s5") or 0)
  end
  local secs = {}
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("per_second") or {}) do secs[k] = (secs[k] or 0) + v end
  end
  local parts = {}
  for k, v in pairs(secs) do table.insert(parts, string.format('"%d":%d', k, v)) end
  table.sort(parts)
  local e = summary.errors
  io.write(string.format(
    'QAGB_RESULT {"requests":%d,"duration_us":%d,"bytes":%d,"err_connect":%d,"err_read":%d,"err_write":%d,'
      .. '"err_status":%d,"err_timeout":%d,"p50_us":%d,"p90_us":%d,"p99_us":%d,"p999_us":%d,"mean_us":%.1f,'
      .. '"max_us":%d,"cache_hits":%d,"cache_misses":%d,"status_2xx":%d,"status_3xx":%d,"status_4xx":%d,'
      .. '"status_5xx":%d,"series":{%s}}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency:percentile(99.9),
    latency.mean, latency.max, h, m, a, b, c, d, table.concat(parts, ",")))
end
