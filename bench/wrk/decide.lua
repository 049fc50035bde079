-- wrk script for POST /v1/decide: cycles through the bodies in a file (one JSON per line).
-- Args (after --): <bodies file> <token> <unique: 0|1> <run id>. With unique=1, every "@N@" in a body
-- becomes a counter no other request of any run has used, so no cache can answer.
local bodies = {}
local index = 0
local counter = 0
local unique = false
local prefix = ""

function init(args)
  for line in io.lines(args[1]) do
    if #line > 0 then bodies[#bodies + 1] = line end
  end
  wrk.method = "POST"
  wrk.headers["content-type"] = "application/json"
  wrk.headers["authorization"] = "Bearer " .. args[2]
  unique = args[3] == "1"
  prefix = args[4] or "r"
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

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"requests":%d,"duration_us":%d,"bytes":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},"latency_us":{"p50":%d,"p90":%d,"p99":%d,"max":%d,"mean":%.1f}}\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
end
