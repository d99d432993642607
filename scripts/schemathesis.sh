#!/usr/bin/env bash
# Fuzzes the live gateway with schemathesis against the OpenAPI document each caller gets (issue 18):
#   1. takes the jar `./mvnw verify` built (service/target/queryapigate.jar; this script builds nothing),
#   2. starts it on free loopback ports in a throwaway home: the quickstart's DuckDB demo and saved queries whose
#      parameter rules cover every kind (scripts/schemathesis/gateway.yml),
#   3. makes a narrow key granted two of those queries,
#   4. runs `schemathesis run <base>/openapi.json` with the narrow key, then with the administrator key (whose
#      document has the whole management API: that run creates, changes and deletes keys, queries, collections and
#      the example APIs in the throwaway home), with the checks, seed and limits of scripts/schemathesis/schemathesis.toml,
#   5. stops the gateway, prints each run's generated cases, failures and time, and exits non-zero if a run failed.
# Output: service/target/schemathesis/ (each run's console output and JUnit report, the gateway's log, summary.md).
# Knobs: QAG_SCHEMATHESIS (the schemathesis command; default: installed by `scripts/test-services.sh start` for
#        SERVICES=schemathesis), QAG_SCHEMATHESIS_MAX_EXAMPLES (per operation, default 25), QAG_SCHEMATHESIS_SEED
#        (default 18), QAG_SCHEMATHESIS_KEEP=1 (keep the throwaway home), QAG_SCHEMATHESIS_RUNS ("narrow admin").
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd) || exit 1
cd "$ROOT" || exit 1
. scripts/jdk.sh || exit 1

say() { echo "schemathesis.sh: $*"; }
die() { echo "schemathesis.sh: $*" >&2; exit 2; }

JAR=service/target/queryapigate.jar
[ -f "$JAR" ] || die "$JAR is missing: build it first (./mvnw verify, or ./mvnw -pl service -am package -DskipTests)"

ST=${QAG_SCHEMATHESIS:-}
if [ -z "$ST" ] || [ ! -x "$ST" ]; then
  env_file="${QAG_ENV_FILE:-/tmp/qag-test-services.env}"
  SERVICES=schemathesis scripts/test-services.sh start >/dev/null || die "scripts/test-services.sh could not install schemathesis"
  ST=$(sed -n 's/^QAG_SCHEMATHESIS=//p' "$env_file" | tail -n1)
  [ -x "$ST" ] || die "no schemathesis command in $env_file"
fi

OUT=service/target/schemathesis
rm -rf "$OUT" && mkdir -p "$OUT" || exit 2
OUT=$(cd "$OUT" && pwd)
HOME_DIR=$(mktemp -d /tmp/qag-schemathesis.XXXXXX) || exit 2
free_port() { "$(dirname "$ST")/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
PORT=$(free_port) ADMIN_PORT=$(free_port)
ADMIN_KEY="qag-schemathesis-admin-$(head -c 12 /dev/urandom | od -An -tx1 | tr -d ' \n')"
BASE="http://127.0.0.1:$PORT"

GW_PID=""
cleanup() {
  if [ -n "$GW_PID" ] && kill -0 "$GW_PID" 2>/dev/null; then
    kill -TERM "$GW_PID" 2>/dev/null
    for _ in $(seq 100); do kill -0 "$GW_PID" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$GW_PID" 2>/dev/null
  fi
  cp "$HOME_DIR/gateway.log" "$OUT/gateway.log" 2>/dev/null
  if [ "${QAG_SCHEMATHESIS_KEEP:-0}" = 1 ]; then say "kept the home $HOME_DIR"; else rm -rf "$HOME_DIR"; fi
}
trap cleanup EXIT

t0=$(date +%s%3N)
QUERYAPIGATE_HOME=$HOME_DIR QUERYAPIGATE_ADMIN_KEY=$ADMIN_KEY QUERYAPIGATE_PORT=$PORT QUERYAPIGATE_ADMIN_PORT=$ADMIN_PORT \
  java --enable-native-access=ALL-UNNAMED -Xmx512m -XX:+UseSerialGC -jar "$JAR" server scripts/schemathesis/gateway.yml \
  >"$HOME_DIR/stdout.log" 2>&1 &
GW_PID=$!
until curl -sf --max-time 2 "$BASE/health" >/dev/null; do
  if ! kill -0 "$GW_PID" 2>/dev/null || (( $(date +%s%3N) - t0 > 90000 )); then
    tail -n 40 "$HOME_DIR/stdout.log" "$HOME_DIR/gateway.log" >&2 2>/dev/null
    die "the gateway did not answer $BASE/health"
  fi
  sleep 0.2
done
say "gateway up on $BASE after $(( $(date +%s%3N) - t0 )) ms (home $HOME_DIR)"

# The narrow key: two of the saved queries, nothing else (no connection grant, no ad-hoc SQL, no management API).
NARROW_KEY=$(curl -sf --max-time 10 -H "X-API-Key: $ADMIN_KEY" -H 'Content-Type: application/json' \
  -d '{"name": "schemathesis narrow", "queries": ["film", "films_by_rating"]}' "$BASE/api/v1/api-keys" \
  | "$(dirname "$ST")/python" -c 'import json, sys; print(json.load(sys.stdin)["secret"])') \
  || die "could not create the narrow key"

runs=${QAG_SCHEMATHESIS_RUNS:-narrow admin}
rc=0
{
  echo "| run | operations | generated cases | failures | errors | time |"
  echo "|---|---|---|---|---|---|"
} >"$OUT/summary.md"
for run in $runs; do
  case $run in
    narrow) key=$NARROW_KEY ;;
    admin)  key=$ADMIN_KEY ;;
    *) die "unknown run '$run' (narrow, admin)" ;;
  esac
  say "run '$run': $ST run $BASE/openapi.json"
  r0=$(date +%s%3N)
  # run inside $OUT: schemathesis and hypothesis keep their working files in the current directory
  (cd "$OUT" && SCHEMATHESIS_HOOKS="$ROOT/scripts/schemathesis/hooks.py" \
    "$ST" --config-file "$ROOT/scripts/schemathesis/schemathesis.toml" --no-color run "$BASE/openapi.json" \
    -H "X-API-Key: $key" \
    --seed "${QAG_SCHEMATHESIS_SEED:-18}" --max-examples "${QAG_SCHEMATHESIS_MAX_EXAMPLES:-25}" \
    --report junit --report-junit-path "$OUT/$run-junit.xml" \
    >"$OUT/$run.txt" 2>&1)
  run_rc=$?
  secs=$(( ($(date +%s%3N) - r0) / 100 )); secs="$((secs / 10)).$((secs % 10)) s"
  ops=$(sed -n 's/^ *Selected: *//p' "$OUT/$run.txt" | head -n1)
  cases=$(sed -n 's/^ *\([0-9][0-9]*\) generated.*/\1/p' "$OUT/$run.txt" | head -n1)
  failures=$(sed -n 's/^.* found \([0-9][0-9]*\) unique failure.*/\1/p' "$OUT/$run.txt" | head -n1)
  errors=$(sed -n 's/^ *🚫 .*: \([0-9][0-9]*\)$/\1/p' "$OUT/$run.txt" | awk '{ n += $1 } END { print n + 0 }')
  echo "| $run | ${ops:-?} | ${cases:-?} | ${failures:-0} | ${errors:-0} | $secs |" >>"$OUT/summary.md"
  if [ "$run_rc" -ne 0 ]; then
    rc=1
    echo "schemathesis.sh: run '$run' FAILED (exit $run_rc); its output ($OUT/$run.txt):" >&2
    sed -n '/^=* FAILURES =*$/,$p' "$OUT/$run.txt" | head -n 400 >&2
    [ -s "$OUT/$run.txt" ] && ! grep -q '^=* FAILURES =*$' "$OUT/$run.txt" && tail -n 60 "$OUT/$run.txt" >&2
  fi
done
echo "| total | | | | | $(( ($(date +%s%3N) - t0) / 1000 )) s with the gateway's start |" >>"$OUT/summary.md"
say "summary (every case: $OUT):"
sed 's/^/  /' "$OUT/summary.md"
exit $rc
