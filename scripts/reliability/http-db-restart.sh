#!/usr/bin/env bash
# A real ClickHouse restart under load, through a real gateway (issue 23, docs/RELIABILITY.md, section dbfaults-http).
#
#   scripts/reliability/http-db-restart.sh            # from any directory; needs service/target/queryapigate.jar
#
# Starts a dedicated clickhouse-server of its own (Debian's binary, HTTP 8140, native 9140, config and data under
# /tmp/qag-rel-dbfaults-http-ch), the packaged gateway on 8141 (admin 8142) with one connection to it (poolSize 8),
# and 8 callers calling POST /execute_sql (SELECT 1, timeout 3 s) in a loop: after a warm-up (2 successes per caller,
# left out of the figures) UP_S seconds of load, the server stopped
# (SIGTERM, or SIGNAL, waited for), DOWN_S seconds down, started again, AFTER_S more seconds. Prints requests and statuses per
# phase, the slowest call, and the time from the server answering its ping again to the first successful call.
# Stops everything it started, always. The shared servers are not touched.
#
# Knobs: SIGNAL (TERM: a graceful stop, which 18.16 delays while keep-alive connections stay busy; KILL: a crash),
# UP_S (5), DOWN_S (5), AFTER_S (5), CALLERS (8), LIMIT_S (3), JAVA (java of scripts/jdk.sh).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SIGNAL=${SIGNAL:-TERM} UP_S=${UP_S:-5} DOWN_S=${DOWN_S:-5} AFTER_S=${AFTER_S:-5} CALLERS=${CALLERS:-8} LIMIT_S=${LIMIT_S:-3}
DIR=/tmp/qag-rel-dbfaults-http-ch
CH_HTTP=8140 CH_TCP=9140 GW=8141 GW_ADMIN=8142
KEY=rel-admin-key-0123456789abcdef
JAR=$ROOT/service/target/queryapigate.jar
[ -f "$JAR" ] || { echo "no $JAR: build it first (./mvnw -B -ntp -pl service -am package -DskipTests)" >&2; exit 2; }
if [ -z "${JAVA:-}" ]; then . "$ROOT/scripts/jdk.sh"; JAVA=java; fi
[ -x /usr/bin/clickhouse-server ] || [ -x /usr/sbin/clickhouse-server ] || { echo "clickhouse-server is not installed (scripts/test-services.sh installs it)" >&2; exit 2; }
CH_BIN=$(command -v clickhouse-server || echo /usr/sbin/clickhouse-server)

ch_pid= gw_pid=
cleanup() {
  [ -n "$gw_pid" ] && kill "$gw_pid" 2>/dev/null && wait "$gw_pid" 2>/dev/null || true
  [ -n "$ch_pid" ] && kill "$ch_pid" 2>/dev/null && wait "$ch_pid" 2>/dev/null || true
}
trap cleanup EXIT

rm -rf "$DIR"; mkdir -p "$DIR/data/tmp" "$DIR/data/user_files" "$DIR/data/format_schemas" "$DIR/log" "$DIR/home"
sed -e "s|<http_port>8123</http_port>|<http_port>$CH_HTTP</http_port>|" \
    -e "s|<tcp_port>9000</tcp_port>|<tcp_port>$CH_TCP</tcp_port>|" \
    -e "s|<interserver_http_port>9009</interserver_http_port>|<interserver_http_port>$((CH_TCP + 1))</interserver_http_port>|" \
    -e "s|/var/lib/clickhouse/|$DIR/data/|g" -e "s|/var/log/clickhouse-server/|$DIR/log/|g" \
    -e "s|<listen_host>::1</listen_host>||" \
    -e "s|<users_config>users.xml</users_config>|<users_config>/etc/clickhouse-server/users.xml</users_config>|" \
    /etc/clickhouse-server/config.xml >"$DIR/config.xml"
# drop the included config.d / users.d snippets of the shared server: this one is plain
sed -i -e '/<include_from>/d' "$DIR/config.xml"

ch_ping() { curl -s -m 1 "http://127.0.0.1:$CH_HTTP/ping" 2>/dev/null | grep -q Ok; }
start_ch() {
  (cd "$DIR/data" && exec "$CH_BIN" --config-file="$DIR/config.xml" >>"$DIR/log/stdout.log" 2>&1) &
  ch_pid=$!
  for _ in $(seq 1 600); do ch_ping && return 0; kill -0 "$ch_pid" 2>/dev/null || break; sleep 0.1; done
  echo "clickhouse-server did not start; its log:" >&2; tail -20 "$DIR/log/clickhouse-server.err.log" >&2 || true; exit 1
}
start_ch
echo "clickhouse-server (pid $ch_pid) on $CH_HTTP"

cat >"$DIR/home/config.yml" <<YAML
home: $DIR/home
auth:
  adminKey: $KEY
connections:
  ch:
    dialect: clickhouse
    url: http://127.0.0.1:$CH_HTTP
    user: default
    poolSize: 8
server:
  applicationConnectors:
    - type: http
      bindHost: 127.0.0.1
      port: $GW
  adminConnectors:
    - type: http
      bindHost: 127.0.0.1
      port: $GW_ADMIN
  requestLog:
    appenders: []
logging:
  level: WARN
YAML
"$JAVA" --enable-native-access=ALL-UNNAMED -jar "$JAR" server "$DIR/home/config.yml" >"$DIR/log/gateway.log" 2>&1 &
gw_pid=$!
for _ in $(seq 1 900); do curl -s -m 1 "http://127.0.0.1:$GW/health" >/dev/null 2>&1 && break; kill -0 "$gw_pid" 2>/dev/null || { tail -30 "$DIR/log/gateway.log" >&2; exit 1; }; sleep 0.1; done
READER=$(curl -s -m 10 -X POST "http://127.0.0.1:$GW/api/v1/api-keys" -H "X-API-Key: $KEY" -H 'Content-Type: application/json' \
  -d '{"name":"rel-reader","connections":["ch"],"adhoc_sql":true}' | python3 -c 'import json,sys; print(json.load(sys.stdin)["secret"])')
echo "gateway (pid $gw_pid) on $GW"

# the load, in the background; phases are marked by files the load reads the times of
python3 - "$GW" "$READER" "$CALLERS" "$LIMIT_S" "$DIR" <<'PY' &
import json, os, sys, threading, time, urllib.request, urllib.error
gw, key, callers, limit, d = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), sys.argv[5]
body = json.dumps({"sql": "SELECT 1", "connection_name": "ch", "timeout": limit}).encode()
calls, lock, stop = [], threading.Lock(), os.path.join(d, "stop")
def caller():
    while not os.path.exists(stop):
        req = urllib.request.Request(f"http://127.0.0.1:{gw}/execute_sql", data=body, method="POST",
                                     headers={"X-API-Key": key, "Content-Type": "application/json"})
        t0 = time.time(); code = None
        try:
            with urllib.request.urlopen(req, timeout=60) as r:
                r.read(); status = r.status
        except urllib.error.HTTPError as e:
            status = e.code
            try: code = json.loads(e.read()).get("code")
            except Exception: code = "not-json"
        except Exception as e:
            status, code = 0, type(e).__name__
        with lock:
            calls.append((t0, time.time(), status, code))
            if sum(1 for c in calls if c[2] == 200) == 2 * callers:
                open(os.path.join(d, "warm"), "w").close()
ts = [threading.Thread(target=caller) for _ in range(callers)]
[t.start() for t in ts]; [t.join() for t in ts]
json.dump(calls, open(os.path.join(d, "calls.json"), "w"))
PY
load_pid=$!
for _ in $(seq 1 600); do [ -f "$DIR/warm" ] && break; sleep 0.1; done
date +%s.%N >"$DIR/t_warm"
sleep "$UP_S"
date +%s.%N >"$DIR/t_stop"
kill -"$SIGNAL" "$ch_pid"; wait "$ch_pid" 2>/dev/null || true; ch_pid=
date +%s.%N >"$DIR/t_down"
sleep "$DOWN_S"
date +%s.%N >"$DIR/t_start"
start_ch
date +%s.%N >"$DIR/t_up"
sleep "$AFTER_S"
touch "$DIR/stop"; wait "$load_pid"

python3 - "$DIR" "$LIMIT_S" <<'PY'
import json, sys
d, limit = sys.argv[1], int(sys.argv[2])
t = {k: float(open(f"{d}/t_{k}").read()) for k in ("stop", "down", "start", "up")}
warm = float(open(f"{d}/t_warm").read())
calls = sorted(c for c in json.load(open(f"{d}/calls.json")) if c[0] >= warm)  # the warm-up calls left out
def phase(c):
    return "before" if c[1] <= t["stop"] else "down" if c[0] < t["up"] else "after"
for p in ("before", "down", "after"):
    cs = [c for c in calls if phase(c) == p]
    st = {}
    for c in cs: st[f"{c[2]} {c[3] or ''}".strip()] = st.get(f"{c[2]} {c[3] or ''}".strip(), 0) + 1
    mx = max((c[1] - c[0] for c in cs), default=0)
    print(f"{p:>6}: {len(cs)} requests {st}, max latency {mx*1000:.0f} ms")
first = min((c[1] for c in calls if c[2] == 200 and c[1] > t["up"]), default=None)
first = "never" if first is None else f"{(first - t['up']) * 1000:.0f} ms"
print(f"requests {len(calls)}; stop took {(t['down']-t['stop'])*1000:.0f} ms, start took {(t['up']-t['start'])*1000:.0f} ms;"
      f" slowest call {max(c[1]-c[0] for c in calls)*1000:.0f} ms (limit {limit} s);"
      f" first success {first} after the server answered its ping")
late = [c for c in calls if c[1] - c[0] > limit + 2]
print(f"calls past the limit + 2 s: {len(late)}")
PY
