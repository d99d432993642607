#!/usr/bin/env bash
# Datasette side by side (issue 22): the same SQLite file, the same parameterised lookup (a film by id with its
# rental count: a join, a GROUP BY and a count over 5,000 rentals) three ways:
#   jdbc      straight over xerial sqlite-jdbc on the file, one call at a time (DirectJdbc.java): one kept
#             connection, and a read-only connection per call as the sqlite dialect opens it; Python's sqlite3 the
#             same way (Datasette's floor)
#   gateway   QueryAPIGate's saved query film_sqlite on the sqlite dialect (the packaged jar, config/jvm.options)
#   datasette Datasette's canned query film (benchmarks/datasette/datasette.yaml), JSON with _shape=array
# Fairness: Datasette serves from one process; both servers are pinned to the same single core (taskset -c
# $QAG_DS_SERVER_CPU, the JVM told it has 1 processor) and wrk to the other, so "calls/s" is per core. Rounds
# interleave the two servers: for each round, one caller at a time (wrk -c1, its median latency), then
# $QAG_DS_CONNECTIONS callers (throughput). Both run their defaults otherwise (the gateway writes its request log
# and its event log, Datasette its own bookkeeping), and both open the file read-only with locking (Datasette's
# default "mutable" mode, not --immutable).
# Needs: service/target/queryapigate.jar, wrk, taskset, python3, Datasette (installed by
#        `SERVICES=datasette scripts/test-services.sh start`, or QAG_DATASETTE=/path/to/datasette).
# Knobs: QAG_DS_ROUNDS (5), QAG_DS_SECONDS per cell (10), QAG_DS_WARMUP seconds per server before the rounds (60),
#        QAG_DS_CONNECTIONS (8), QAG_DS_SERVER_CPU (1),
#        QAG_DS_CLIENT_CPU (0), QAG_DS_OUT (benchmarks/results/<date>/datasette).
# Output: raw.txt (one line per cell) and summary.md (medians over rounds, with min-max) in the output folder.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$ROOT"
. scripts/jdk.sh
say() { echo "side_by_side.sh: $*" >&2; }
die() { echo "side_by_side.sh: $*" >&2; exit 2; }

JAR=service/target/queryapigate.jar
[ -f "$JAR" ] || die "$JAR is missing: build it first (./mvnw -pl service -am package -DskipTests)"
command -v wrk >/dev/null || die "wrk is missing (apt-get install wrk)"
DS=${QAG_DATASETTE:-}
if [ -z "$DS" ] || [ ! -x "$DS" ]; then
  env_file="${QAG_ENV_FILE:-/tmp/qag-test-services.env}"
  SERVICES=datasette scripts/test-services.sh start >/dev/null || die "scripts/test-services.sh could not install Datasette"
  DS=$(sed -n 's/^QAG_DATASETTE=//p' "$env_file" | tail -n1)
  [ -x "$DS" ] || die "no datasette command in $env_file"
fi
SQLITE_JAR=$(ls "${M2_REPO:-$HOME/.m2/repository}"/org/xerial/sqlite-jdbc/3.54.1.0/sqlite-jdbc-3.54.1.0.jar) \
  || die "sqlite-jdbc 3.54.1.0 is not in the local Maven repository (build the project first)"

ROUNDS=${QAG_DS_ROUNDS:-5} SECONDS_PER_CELL=${QAG_DS_SECONDS:-10} CONNS=${QAG_DS_CONNECTIONS:-8} WARMUP=${QAG_DS_WARMUP:-60}
SCPU=${QAG_DS_SERVER_CPU:-1} CCPU=${QAG_DS_CLIENT_CPU:-0}
OUT=${QAG_DS_OUT:-benchmarks/results/$(date -u +%F)/datasette}
mkdir -p "$OUT"; OUT=$(cd "$OUT" && pwd)
WORK=$(mktemp -d /tmp/qag-datasette.XXXXXX)
RAW="$OUT/raw.txt"; : >"$RAW"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

PIDS=()
cleanup() {
  for p in "${PIDS[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  for log in "$WORK"/*.log; do [ -f "$log" ] && tail -n 200 "$log" >"$OUT/$(basename "$log")"; done
  rm -rf "$WORK"
}
trap cleanup EXIT

# One file for all three: the quickstart's SQLite demo, made by its own init script.
python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.executescript(open(sys.argv[2]).read()); c.close()' \
  "$WORK/demo.sqlite" config/demo/demo-sqlite.sql
say "database $WORK/demo.sqlite ($(stat -c %s "$WORK/demo.sqlite") bytes); server core $SCPU, client core $CCPU"

DS_PORT=$(free_port)
taskset -c "$SCPU" "$DS" serve "$WORK/demo.sqlite" -m benchmarks/datasette/datasette.yaml -h 127.0.0.1 -p "$DS_PORT" \
  >"$WORK/datasette.log" 2>&1 &
PIDS+=($!)

GW_PORT=$(free_port) GW_ADMIN=$(free_port) KEY="qag-bench-$(head -c 8 /dev/urandom | od -An -tx1 | tr -d ' \n')"
mkdir -p "$WORK/home"
cat >"$WORK/gateway.yml" <<YAML
home: $WORK/home
auth:
  adminKey: $KEY
connections:
  demo_sqlite:
    dialect: sqlite
    url: $WORK/demo.sqlite
    poolSize: 4
seedQueries:
  - name: film_sqlite
    connection: demo_sqlite
    sql: |
      SELECT f.film_id, f.title, f.release_year, f.rating, f.rental_rate, f.length,
             count(r.rental_id) AS rentals
      FROM film f LEFT JOIN rental r ON r.film_id = f.film_id
      WHERE f.film_id = :film_id
      GROUP BY f.film_id
    parameters:
      film_id: {type: int, min: 1}
server:
  enableVirtualThreads: true
  applicationConnectors: [{type: http, bindHost: 127.0.0.1, port: $GW_PORT}]
  adminConnectors: [{type: http, bindHost: 127.0.0.1, port: $GW_ADMIN}]
  requestLog: {appenders: [{type: file, currentLogFilename: $WORK/home/requests.log, archive: false}]}
logging:
  level: WARN
  appenders: [{type: file, currentLogFilename: $WORK/home/gateway.log, archive: false}]
YAML
jvm_opts=()
while IFS= read -r line; do case "$line" in ''|'#'*) ;; *) jvm_opts+=("$line") ;; esac; done < config/jvm.options
taskset -c "$SCPU" java --enable-native-access=ALL-UNNAMED -XX:ActiveProcessorCount=1 "${jvm_opts[@]}" \
  -jar "$JAR" server "$WORK/gateway.yml" >"$WORK/gateway-stdout.log" 2>&1 &
PIDS+=($!)

wait_for() {  # url, header
  for _ in $(seq 300); do
    curl -sf --max-time 2 ${2:+-H "$2"} "$1" >/dev/null 2>&1 && return 0
    sleep 0.2
  done
  die "no answer from $1 (logs: $WORK)"
}
GW_PATH="/q/film_sqlite?film_id="
DS_PATH="/demo/film.json?_shape=array&film_id="
wait_for "http://127.0.0.1:$GW_PORT${GW_PATH}1" "X-API-Key: $KEY"
wait_for "http://127.0.0.1:$DS_PORT${DS_PATH}1"
say "both answer; the same row from each:"
curl -s -H "X-API-Key: $KEY" "http://127.0.0.1:$GW_PORT${GW_PATH}1" >&2; echo >&2
curl -s "http://127.0.0.1:$DS_PORT${DS_PATH}1" >&2; echo >&2

# wrk: $1 = label, $2 = round, $3 = base URL, $4 = path, $5 = key, $6 = connections, $7 = seconds
cell() {
  local out p50 rps
  out=$(QAG_PATH="$4" QAG_KEY="$5" taskset -c "$CCPU" wrk -t1 -c"$6" -d"$7"s --latency -s benchmarks/datasette/lookup.lua "$3")
  if grep -q "Non-2xx" <<<"$out"; then echo "$out" >&2; die "$1: non-2xx answers"; fi
  p50=$(awk '/^ +50%/ {v=$2; if (v ~ /us$/) {sub(/us$/,"",v); print v} else if (v ~ /ms$/) {sub(/ms$/,"",v); print v*1000} else {sub(/s$/,"",v); print v*1000000}}' <<<"$out")
  rps=$(awk '/^Requests\/sec:/ {print $2}' <<<"$out")
  echo "$1 $2 $p50 $rps" | tee -a "$RAW" >&2
}

say "warm-up: $WARMUP s each (the JVM compiles its hot paths on its one core meanwhile)"
cell gateway-warmup 0 "http://127.0.0.1:$GW_PORT" "$GW_PATH" "$KEY" "$CONNS" "$WARMUP" >/dev/null 2>&1 || true
cell datasette-warmup 0 "http://127.0.0.1:$DS_PORT" "$DS_PATH" "" "$CONNS" "$WARMUP" >/dev/null 2>&1 || true
: >"$RAW"
for r in $(seq "$ROUNDS"); do
  cell datasette-1 "$r" "http://127.0.0.1:$DS_PORT" "$DS_PATH" "" 1 "$SECONDS_PER_CELL"
  cell gateway-1 "$r" "http://127.0.0.1:$GW_PORT" "$GW_PATH" "$KEY" 1 "$SECONDS_PER_CELL"
  cell "datasette-$CONNS" "$r" "http://127.0.0.1:$DS_PORT" "$DS_PATH" "" "$CONNS" "$SECONDS_PER_CELL"
  cell "gateway-$CONNS" "$r" "http://127.0.0.1:$GW_PORT" "$GW_PATH" "$KEY" "$CONNS" "$SECONDS_PER_CELL"
done

say "direct, one call at a time on core $SCPU"
taskset -c "$SCPU" java --enable-native-access=ALL-UNNAMED -cp "$SQLITE_JAR" benchmarks/datasette/DirectJdbc.java \
  "$WORK/demo.sqlite" "$ROUNDS" 20000 | tee -a "$RAW" >&2
taskset -c "$SCPU" python3 - "$WORK/demo.sqlite" "$ROUNDS" 20000 <<'PY' | tee -a "$RAW" >&2
import sqlite3, statistics, sys, time
path, rounds, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
SQL = ("SELECT f.film_id, f.title, f.release_year, f.rating, f.rental_rate, f.length, count(r.rental_id) AS rentals"
       " FROM film f LEFT JOIN rental r ON r.film_id = f.film_id WHERE f.film_id = :film_id GROUP BY f.film_id")
conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
def run(k):
    samples = []
    for i in range(k):
        t = time.perf_counter_ns(); rows = conn.execute(SQL, {"film_id": 1 + i % 300}).fetchall()
        samples.append(time.perf_counter_ns() - t); assert len(rows) == 1
    return statistics.median(samples) / 1000, k / (sum(samples) / 1e9)
run(n)
for r in range(1, rounds + 1):
    m, rate = run(n); print(f"python-sqlite3-kept {r} {m:.1f} {rate:.0f}")
PY

python3 - "$RAW" "$CONNS" "$SCPU" >"$OUT/summary.md" <<'PY'
import collections, statistics, sys
raw, conns, cpu = sys.argv[1], sys.argv[2], sys.argv[3]
cells = collections.defaultdict(list)
for line in open(raw):
    name, _round, p50, rate = line.split()
    cells[name].append((float(p50), float(rate)))
def med(name, i):
    v = [c[i] for c in cells[name]]
    return statistics.median(v), min(v), max(v)
def fmt(t, digits=0):
    return f"{t[0]:,.{digits}f} ({t[1]:,.{digits}f}-{t[2]:,.{digits}f})"
floor = med("jdbc-kept", 0)
print(f"| way | one caller: median µs per call (min-max of rounds) | adds over direct JDBC (kept connection) | {conns} callers: calls/s on one core (min-max) |")
print("|---|---|---|---|")
for name, label in [("jdbc-kept", "direct JDBC, one kept connection"),
                    ("jdbc-per-call", "direct JDBC, a read-only connection per call (as the dialect opens it)"),
                    ("python-sqlite3-kept", "Python sqlite3, one kept connection (Datasette's floor)"),
                    ("gateway-1", "QueryAPIGate, saved query film_sqlite (HTTP, JSON)"),
                    ("datasette-1", "Datasette 0.65.5, canned query film (HTTP, JSON)")]:
    if name not in cells:
        continue
    lat = med(name, 0)
    adds = [c[0] - f for c, f in zip(cells[name], [c[0] for c in cells["jdbc-kept"]])]
    many = name.replace("-1", "-" + conns)
    thr = fmt(med(many, 1)) if many in cells and many != name else "-"
    add = "-" if name == "jdbc-kept" else fmt((statistics.median(adds), min(adds), max(adds)), 0)
    print(f"| {label} | {fmt(lat, 0 if lat[0] > 100 else 1)} | {add} | {thr} |")
print()
print(f"Servers pinned to core {cpu} (the JVM with -XX:ActiveProcessorCount=1), wrk on the other core; wrk's median for"
      " one caller includes its own HTTP round trip over loopback; direct calls are measured in process.")
PY
cat "$OUT/summary.md"
