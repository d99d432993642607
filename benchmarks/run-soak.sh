#!/usr/bin/env bash
# The 60-second soak, for CI (scripts/test.sh runs it after the benchmark smoke): setup at 1 warehouse, the soak
# (capacity with the mix measured first, then 75% of it held for 60 s in 10-s windows, exports every 10 s), teardown.
# Exits non-zero when a verdict fails (an error, p99 not stable, RSS/heap growth, thread or session growth, events
# recorded != requests answered) or the harness fails. The rate is relative to what was measured in the same run,
# so a slow machine holds a lower rate, not a harder test.
# Needs MariaDB on 127.0.0.1:3306 with user test/test (scripts/test-services.sh starts it) and the service jar (built
# here when missing). Like run-smoke.sh it uses databases, a reader user and a results folder of its own
# (qag_bench_k<pid>_*), so it can run beside another smoke or soak.
#
#   benchmarks/run-soak.sh [--seconds 60] [other `soak` options]    # the 10-minute one: --seconds 600 --window 60
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/jdk.sh

ID="k$$"
OUT=${QAGB_SOAK_OUT:-benchmarks/target/soak/$(date -u +%Y%m%dT%H%M%SZ)-$ID}
. benchmarks/harness.sh

start=$(date +%s)
trap 'bench teardown --no-postgres >/dev/null 2>&1 || true' EXIT
bench setup --warehouses 1 --keep-buffer-pool --no-postgres --no-wrk >/dev/null
rc=0
bench soak --seconds 60 --window 10 --export-every 10 --capacity-seconds 6 --out "$OUT" "$@" || rc=$?
echo "soak: $(( $(date +%s) - start )) s, exit $rc; report: $OUT/soak.md" >&2
exit $rc
