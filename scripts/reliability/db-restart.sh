#!/usr/bin/env bash
# A real database restarted under load, as a user would see it (docs/RELIABILITY.md, "Databases going away").
#
#   scripts/reliability/db-restart.sh [mariadb|postgres|both]      (default: both; one after the other)
#
# Starts a dedicated server of its own (MariaDB: mariadb-install-db + mariadbd on port 3320; PostgreSQL 15: initdb +
# pg_ctl as user postgres on port 5440; data under /tmp/qag-rel-dbfaults-jdbc-*), the packaged gateway
# (service/target/queryapigate.jar, built by `./mvnw -pl service -am package -DskipTests`) on ports 5441/5442 with one
# connection of poolSize 8 and the quickstart's limits, a saved query, and CALLERS (8) callers calling it back to back
# over keep-alive connections (Python, stdlib only). After WARM_SECONDS (5) the server is stopped cleanly
# (mariadb-admin shutdown / pg_ctl stop -m fast), started again DOWN_SECONDS (5) later, and the load goes on for
# AFTER_SECONDS (10). Prints: requests, statuses and codes, max latency, calls over 2 s, the time from the server
# answering again (its own ping) to the first success, and the last failure after it. Everything it started is
# stopped at the end (also on failure); the data directories are removed.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
. "$ROOT/scripts/jdk.sh"
WHICH=${1:-both}
CALLERS=${CALLERS:-8}
WARM_SECONDS=${WARM_SECONDS:-5}
DOWN_SECONDS=${DOWN_SECONDS:-5}
AFTER_SECONDS=${AFTER_SECONDS:-10}
JAR=${JAR:-$ROOT/service/target/queryapigate.jar}
BASE=/tmp/qag-rel-dbfaults-jdbc
MY_PORT=3320
PG_PORT=5440
APP_PORT=5441
ADMIN_PORT=5442
ADMIN_KEY=qag-rel-admin-key-0123456789
PG_BIN=/usr/lib/postgresql/15/bin

[ -f "$JAR" ] || { echo "db-restart: $JAR is missing; build it: ./mvnw -B -ntp -pl service -am package -DskipTests" >&2; exit 1; }
case "$WHICH" in mariadb|postgres|both) ;; *) echo "usage: $0 [mariadb|postgres|both]" >&2; exit 2 ;; esac

GW_PID=""
log() { printf 'db-restart: %s\n' "$*" >&2; }
now() { date +%s.%N; }  # seconds, 9 decimals: ${t/./} is nanoseconds

# ---------------------------------------------------------------- MariaDB (port 3320)
MY_DIR=$BASE-maria
my_admin() { mariadb-admin --no-defaults --protocol=socket --socket="$MY_DIR/sock" -uroot "$@"; }
my_start() {
  /usr/sbin/mariadbd --no-defaults --user=root --datadir="$MY_DIR/data" --socket="$MY_DIR/sock" \
    --pid-file="$MY_DIR/pid" --port=$MY_PORT --bind-address=127.0.0.1 --skip-log-bin \
    --log-error="$MY_DIR/error.log" >/dev/null 2>&1 &
}
my_ready() { my_admin ping >/dev/null 2>&1; }
my_stop() { my_admin shutdown >/dev/null 2>&1 || true; wait_until 60 my_gone || true; }
my_setup() {
  rm -rf "$MY_DIR"; mkdir -p "$MY_DIR"
  mariadb-install-db --no-defaults --user=root --datadir="$MY_DIR/data" --auth-root-authentication-method=normal \
    --skip-test-db >"$MY_DIR/install.log" 2>&1
  my_start
  wait_until 60 my_ready || { log "MariaDB did not start: $(tail -5 "$MY_DIR/error.log")"; return 1; }
  mariadb --no-defaults --protocol=socket --socket="$MY_DIR/sock" -uroot <<'SQL'
CREATE DATABASE qagrel;
CREATE USER 'qagrel'@'127.0.0.1' IDENTIFIED BY 'qagrel';
GRANT SELECT ON qagrel.* TO 'qagrel'@'127.0.0.1';
CREATE TABLE qagrel.items (id INT PRIMARY KEY, name VARCHAR(40));
INSERT INTO qagrel.items VALUES (1, 'one'), (2, 'two'), (3, 'three');
SQL
}
my_teardown() { my_stop; wait_until 30 my_gone || true; rm -rf "$MY_DIR"; }
my_gone() { ! [ -e "$MY_DIR/pid" ] && ! my_ready; }
my_connection() {
  printf '  db:\n    dialect: mysql\n    url: jdbc:mysql://127.0.0.1:%s/qagrel\n    user: qagrel\n    password: qagrel\n    poolSize: 8\n' $MY_PORT
}

# ---------------------------------------------------------------- PostgreSQL 15 (port 5440)
PG_DIR=$BASE-pg
as_pg() { runuser -u postgres -- "$@"; }
pg_start() { as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
  -o "-p $PG_PORT -k $PG_DIR -c listen_addresses=127.0.0.1" start >/dev/null; }
pg_ready() { "$PG_BIN/pg_isready" -q -h 127.0.0.1 -p $PG_PORT; }
pg_stop() { as_pg "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w -t 60 stop >/dev/null 2>&1 || true; }
pg_setup() {
  rm -rf "$PG_DIR"; mkdir -p "$PG_DIR"; chown postgres "$PG_DIR"
  echo qagrel >"$PG_DIR/pw"; chown postgres "$PG_DIR/pw"
  as_pg "$PG_BIN/initdb" -D "$PG_DIR/data" -U postgres --auth-local=trust --auth-host=scram-sha-256 \
    --pwfile="$PG_DIR/pw" >"$PG_DIR/initdb.log" 2>&1
  pg_start
  as_pg psql -q -h "$PG_DIR" -p $PG_PORT -U postgres -d postgres -v ON_ERROR_STOP=1 <<'SQL'
CREATE USER qagrel PASSWORD 'qagrel';
CREATE DATABASE qagrel OWNER postgres;
\c qagrel
CREATE TABLE items (id int PRIMARY KEY, name text);
INSERT INTO items VALUES (1, 'one'), (2, 'two'), (3, 'three');
GRANT SELECT ON items TO qagrel;
SQL
}
pg_teardown() { pg_stop; rm -rf "$PG_DIR"; }
pg_connection() {
  printf '  db:\n    dialect: postgres\n    url: jdbc:postgresql://127.0.0.1:%s/qagrel\n    user: qagrel\n    password: qagrel\n    poolSize: 8\n' $PG_PORT
}

# ---------------------------------------------------------------- the gateway
wait_until() {  # seconds, command...
  local until=$(( $(date +%s) + $1 )); shift
  until "$@"; do [ "$(date +%s)" -lt "$until" ] || return 1; sleep 0.05; done
}
gw_ready() { curl -fs -o /dev/null "http://127.0.0.1:$APP_PORT/health" 2>/dev/null; }
gw_start() {  # connection YAML
  local home=$BASE-gw
  rm -rf "$home"; mkdir -p "$home"
  cat >"$home/config.yml" <<YAML
home: $home
auth:
  adminKey: $ADMIN_KEY
metadataCache:
  ttl: 5s
limits:
  queryTimeout: 30s
  maxRows: 10000
events:
  flushInterval: 500ms
connections:
$1
server:
  applicationConnectors:
    - type: http
      bindHost: 127.0.0.1
      port: $APP_PORT
  adminConnectors:
    - type: http
      bindHost: 127.0.0.1
      port: $ADMIN_PORT
  requestLog:
    appenders: []
logging:
  level: WARN
  appenders:
    - type: file
      currentLogFilename: $home/gateway.log
      archive: false
YAML
  java -jar "$JAR" server "$home/config.yml" >"$home/stdout.log" 2>&1 &
  GW_PID=$!
  wait_until 90 gw_ready || { log "the gateway did not start: $(tail -20 "$home/stdout.log")"; return 1; }
  local saved
  saved=$(curl -sS -w '%{http_code}' -o "$home/saved.json" -X POST "http://127.0.0.1:$APP_PORT/api/v1/queries" \
    -H "X-API-Key: $ADMIN_KEY" -H 'Content-Type: application/json' \
    -d '{"name": "item", "sql": "SELECT id, name FROM items WHERE id = :id", "connection_name": "db",
         "parameters": {"id": {"type": "integer", "required": true}}, "publish": true}')
  [ "$saved" = 201 ] || { log "saving the query answered $saved: $(cat "$home/saved.json")"; return 1; }
}
gw_stop() { if [ -n "$GW_PID" ]; then kill "$GW_PID" 2>/dev/null || true; wait "$GW_PID" 2>/dev/null || true; GW_PID=""; fi; }

cleanup() {
  gw_stop
  [ -d "$MY_DIR" ] && my_teardown
  [ -d "$PG_DIR" ] && pg_teardown
  rm -rf "$BASE-gw" "$BASE-load"
}
trap cleanup EXIT

# ---------------------------------------------------------------- the load and the figures
LOAD=$(cat <<'PY'
import http.client, json, os, sys, threading, time
port, key, callers, out, stop_file = int(sys.argv[1]), sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5]
stop = threading.Event()
calls = []
def caller(n):
    conn, mine, i = None, [], 0
    while not stop.is_set():
        i += 1
        start = time.time()
        try:
            if conn is None:
                conn = http.client.HTTPConnection('127.0.0.1', port, timeout=120)
            conn.request('GET', f'/q/item?id={1 + (n + i) % 3}', headers={'X-API-Key': key})
            r = conn.getresponse()
            body = r.read()
            code = '' if r.status == 200 else json.loads(body or b'{}').get('code', '')
            mine.append((start, time.time(), r.status, code, r.getheader('Retry-After') or ''))
            if r.getheader('Connection', '').lower() == 'close':
                conn.close(); conn = None
        except Exception as e:
            mine.append((start, time.time(), 0, type(e).__name__, ''))
            conn = None
    calls.extend(mine)
threads = [threading.Thread(target=caller, args=(n,)) for n in range(callers)]
for t in threads: t.start()
try:
    while not os.path.exists(stop_file):  # runs until the script creates the stop file
        time.sleep(0.05)
finally:
    stop.set()
    for t in threads: t.join()
    with open(out, 'w') as f:
        for c in sorted(calls): f.write('\t'.join(map(str, c)) + '\n')
PY
)
REPORT=$(cat <<'PY'
import collections, sys
calls = [l.rstrip('\n').split('\t') for l in open(sys.argv[1])]
calls = [(float(s), float(e), int(st), code, ra) for s, e, st, code, ra in calls]
marks = dict(l.split() for l in open(sys.argv[2]))
stopped, started, up = float(marks['stop']), float(marks['start']), float(marks['up'])
name = sys.argv[3]
lat = [e - s for s, e, *_ in calls]
statuses = collections.Counter(f'{st} {code}'.strip() for _, _, st, code, _ in calls)
over2 = sum(1 for x in lat if x > 2)
fails = [c for c in calls if c[2] != 200]
down = [c for c in calls if c[0] >= stopped + 1 and c[1] <= started]
first_ok = min((c[1] for c in calls if c[2] == 200 and c[1] > up), default=None)
last_fail = max((c[1] for c in fails), default=None)
retry = collections.Counter(c[4] for c in fails)
print(f'{name}: {len(calls)} requests in {calls[-1][1] - calls[0][0]:.1f} s; statuses: '
      + ', '.join(f'{k} x{v}' for k, v in statuses.most_common()))
print(f'{name}: max latency {max(lat) * 1000:.0f} ms; > 2 s: {over2}; while down (from 1 s after the stop to the'
      f' start): {len(down)} calls, max {max((e - s for s, e, *_ in down), default=0) * 1000:.0f} ms;'
      f' Retry-After on failures: {dict(retry)}')
stop_took = float(marks['down']) / 1000
print(f'{name}: stop command took {stop_took:.1f} s; down {started - stopped - stop_took:.1f} s;'
      f' answered its own ping {(up - started) * 1000:.0f} ms after the start command; '
      + (f'first success {(first_ok - up) * 1000:.0f} ms after that' if first_ok else 'no success after the restart'))
for s, e, st, code, _ in calls:
    if e - s > 2:
        print(f'{name}: over 2 s: {(e - s) * 1000:.0f} ms, {st} {code}, started {(s - stopped) * 1000:+.0f} ms from the'
              f' stop command, {(s - up) * 1000:+.0f} ms from the server answering')
if last_fail:
    print(f'{name}: last failure {(last_fail - up) * 1000:+.0f} ms from the server answering')
PY
)

measure() {  # name setup start stop ready teardown connection
  local name=$1 setup=$2 start=$3 stop=$4 ready=$5 teardown=$6 connection=$7
  log "$name: starting a dedicated server"
  $setup
  gw_start "$($connection)"
  mkdir -p "$BASE-load"
  local out=$BASE-load/calls.tsv marks=$BASE-load/marks
  : >"$marks"
  python3 -c "$LOAD" $APP_PORT $ADMIN_KEY "$CALLERS" "$out" "$BASE-load/stop" &
  local load_pid=$!
  sleep "$WARM_SECONDS"
  log "$name: stopping the server under load"
  local t0 t1
  t0=$(now)
  echo "stop $t0" >>"$marks"
  $stop
  t1=$(now)
  echo "down $(( (${t1/./} - ${t0/./}) / 1000000 ))" >>"$marks"
  sleep "$DOWN_SECONDS"
  log "$name: starting it again"
  echo "start $(now)" >>"$marks"
  $start
  wait_until 60 "$ready"
  echo "up $(now)" >>"$marks"
  sleep "$AFTER_SECONDS"
  touch "$BASE-load/stop"
  wait "$load_pid"
  python3 -c "$REPORT" "$out" "$marks" "$name"
  gw_stop
  $teardown
  rm -rf "$BASE-load"
}

if [ "$WHICH" = mariadb ] || [ "$WHICH" = both ]; then
  measure MariaDB my_setup my_start my_stop my_ready my_teardown my_connection
fi
if [ "$WHICH" = postgres ] || [ "$WHICH" = both ]; then
  measure PostgreSQL pg_setup pg_start pg_stop pg_ready pg_teardown pg_connection
fi
