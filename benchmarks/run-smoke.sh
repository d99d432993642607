#!/usr/bin/env bash
# The benchmark harness's smoke test, for CI: setup at 1 warehouse, every block for 2 s (one round), the report,
# teardown. Exits non-zero on any failure (a block that errs, a request that is not answered 2xx, a gateway that
# doesn't start). The Python original is skipped unless --with-python is passed (its pip install takes a while).
# Needs MariaDB on 127.0.0.1:3306 with user test/test (scripts/test-services.sh starts it), wrk (installed by setup
# when missing), and the service jar (built here when missing).
#
# Several smokes may run at once on one machine (CI and a developer): each uses its own databases
# (qag_bench_s<pid>_*), its own read-only user and its own results folder, leaves InnoDB's buffer pool as it is and
# doesn't pin mariadbd, so none can drop another's data or change the shared server.
#
#   benchmarks/run-smoke.sh [--with-python] [other `run` options]
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/jdk.sh

ID="s$$"
OUT=${QAGB_SMOKE_OUT:-benchmarks/target/smoke/$(date -u +%Y%m%dT%H%M%SZ)-$ID}
. benchmarks/harness.sh

start=$(date +%s)
trap 'bench teardown || true' EXIT
bench setup --warehouses 1 --keep-buffer-pool >/dev/null
rc=0
bench run --smoke --out "$OUT" "$@" || rc=$?
bench report --results "$OUT" || rc=1
echo "smoke: $(( $(date +%s) - start )) s, exit $rc; report: $OUT/report.md" >&2
exit $rc
