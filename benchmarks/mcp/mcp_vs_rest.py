"""What an MCP tools/call adds over GET /q for the same saved query on one gateway: medians of interleaved rounds of
sequential calls over one keep-alive connection each (the client's own cost is the same for both).

Usage: python3 mcp_vs_rest.py HOST PORT API_KEY [ROUNDS [CALLS_PER_ROUND [QUERY [PARAM]]]]
The saved query takes one int parameter (default: the quickstart's film with film_id); the key must be granted it."""
import http.client, json, statistics, sys, time

host, port, key = sys.argv[1], int(sys.argv[2]), sys.argv[3]
rounds, per_round = int(sys.argv[4]) if len(sys.argv) > 4 else 5, int(sys.argv[5]) if len(sys.argv) > 5 else 1000
query, param = sys.argv[6] if len(sys.argv) > 6 else "film", sys.argv[7] if len(sys.argv) > 7 else "film_id"
rest = http.client.HTTPConnection(host, port)
mcp = http.client.HTTPConnection(host, port)
headers = {"X-API-Key": key}
mcp_headers = {"X-API-Key": key, "Content-Type": "application/json", "Accept": "application/json, text/event-stream"}

def call_rest(i):
    rest.request("GET", f"/q/{query}?{param}={1 + i % 900}", headers=headers)
    r = rest.getresponse(); body = r.read()
    assert r.status == 200, (r.status, body[:200])

def call_mcp(i):
    payload = json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                          "params": {"name": query, "arguments": {param: 1 + i % 900}}})
    mcp.request("POST", "/mcp", body=payload, headers=mcp_headers)
    r = mcp.getresponse(); body = r.read()
    assert r.status == 200 and b'"isError":false' in body, (r.status, body[:300])

def run(f, n):
    samples = []
    for i in range(n):
        t = time.perf_counter_ns(); f(i); samples.append(time.perf_counter_ns() - t)
    return statistics.median(samples) / 1000, n / (sum(samples) / 1e9)

init = json.dumps({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
                   "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
mcp.request("POST", "/mcp", body=init, headers=mcp_headers); r = mcp.getresponse(); print("initialize", r.status, r.read()[:120])
run(call_rest, 2000); run(call_mcp, 2000)  # warm-up
rows = []
for k in range(rounds):
    a = run(call_rest, per_round); b = run(call_mcp, per_round)
    rows.append((a, b))
    print(f"round {k + 1}: REST median {a[0]:.0f} us ({a[1]:.0f}/s)  MCP median {b[0]:.0f} us ({b[1]:.0f}/s)")
rm = [r[0][0] for r in rows]; mm = [r[1][0] for r in rows]; d = [r[1][0] - r[0][0] for r in rows]
print(f"REST p50 {statistics.median(rm):.0f} us ({min(rm):.0f}-{max(rm):.0f}); MCP p50 {statistics.median(mm):.0f} us "
      f"({min(mm):.0f}-{max(mm):.0f}); MCP adds {statistics.median(d):.0f} us ({min(d):.0f}-{max(d):.0f}) per call")
