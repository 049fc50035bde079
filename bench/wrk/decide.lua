-- wrk script for POST /v1/decide: cycles through the bodies in a file (one JSON per line).
-- Args (after --): <bodies file> <token> <unique: 0|1> <run id> [<time each call: 0|1>]. With unique=1, every "@N@"
-- in a body becomes a counter no other request of any run has used, so no cache can answer.
--
-- With "time each call" (one connection only), every call's own latency is recorded too: from just before wrk writes
-- the request to its complete response, on the monotonic clock (LuaJIT's ffi). wrk's own latency figures are not
-- that on one connection: after the run it "corrects" them for coordinated omission (wrk.c, stats_correct), adding
-- for every latency L ≥ 2× the mean interval between calls the samples L − i × interval (i = 1, 2, …) that a sender
-- at a fixed rate would have seen. An agent sends its next call when the last one is answered, so a 10 ms pause among
-- 0.1 ms calls delays one call, where wrk counts ~100 more.
local bodies = {}
local index = 0
local counter = 0
local unique = false
local prefix = ""

local threads = {}
calls = {} -- this thread's per-call latencies: µs → count (read by done() through thread:get)

function setup(thread)
  threads[#threads + 1] = thread
end

function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then bodies[#bodies + 1] = line end
  end
  wrk.method = "POST"
  wrk.headers["content-type"] = "application/json"
  wrk.headers["authorization"] = "Bearer " .. args[2]
  unique = args[3] == "1"
  prefix = args[4] or "r"
  if args[5] == "1" then
    local ok, ffi = pcall(require, "ffi")
    if not ok then error("timing each call needs wrk built with LuaJIT (its ffi module): " .. tostring(ffi)) end
    ffi.cdef([[
      typedef struct { long tv_sec; long tv_nsec; } toolgate_timespec;
      int clock_gettime(int clock, toolgate_timespec *out);
    ]])
    local now = ffi.new("toolgate_timespec")
    local CLOCK_MONOTONIC = 1
    local function micros()
      ffi.C.clock_gettime(CLOCK_MONOTONIC, now)
      return tonumber(now.tv_sec) * 1000000 + tonumber(now.tv_nsec) / 1000
    end
    local sent = nil
    local make = request
    -- wrk calls request() right before it writes a request and response() once it is complete; on one connection
    -- they alternate, so the pair is one call.
    request = function()
      local r = make()
      sent = micros()
      return r
    end
    response = function()
      if sent == nil then return end
      local us = math.floor(micros() - sent + 0.5)
      calls[us] = (calls[us] or 0) + 1
      sent = nil
    end
  end
end

function request()
  index = index % #bodies + 1
  local body = bodies[index]
  if unique then
    counter = counter + 1
    body = body:gsub("@N@", prefix .. counter)
  end
  return wrk.format(nil, "/v1/decide", nil, body)
end

-- The per-call figures as JSON (nil when calls were not timed): count, mean, p50/p90/p99 (nearest rank) and max.
local function timed_calls()
  local merged, n, sum = {}, 0, 0
  for _, thread in ipairs(threads) do
    for us, count in pairs(thread:get("calls") or {}) do
      merged[us] = (merged[us] or 0) + count
      n = n + count
      sum = sum + us * count
    end
  end
  if n == 0 then return nil end
  local keys = {}
  for us in pairs(merged) do keys[#keys + 1] = us end
  table.sort(keys)
  local function percentile(p)
    local rank, seen = math.ceil(p / 100 * n), 0
    for _, us in ipairs(keys) do
      seen = seen + merged[us]
      if seen >= rank then return us end
    end
    return keys[#keys]
  end
  return string.format('{"n":%d,"p50":%d,"p90":%d,"p99":%d,"max":%d,"mean":%.1f}',
    n, percentile(50), percentile(90), percentile(99), keys[#keys], sum / n)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"duration_us":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},"latency_us":{"p50":%d,"p90":%d,"p99":%d,"max":%d,"mean":%.1f},"calls_us":%s}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean,
    timed_calls() or "null"))
end
