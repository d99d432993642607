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

JAR=benchmarks/target/queryapigate-benchmarks.jar
if [ ! -f "$JAR" ]; then
  if grep -q '<module>benchmarks</module>' pom.xml; then
    ./mvnw -q -B -ntp -pl benchmarks -am package -DskipTests
  else
    ./mvnw -q -B -ntp -N install
    ./mvnw -q -B -ntp -f benchmarks/pom.xml package -DskipTests
  fi
fi
if [ ! -f service/target/queryapigate.jar ]; then
  ./mvnw -q -B -ntp -pl service -am package -DskipTests
fi

ID="s$$"
OUT=${QAGB_SMOKE_OUT:-benchmarks/target/smoke/$(date -u +%Y%m%dT%H%M%SZ)-$ID}
bench() { java -jar "$JAR" --prefix "qag_bench_${ID}_" --reader-user "qag_bench_ro_${ID}" "$@"; }

start=$(date +%s)
trap 'bench teardown || true' EXIT
bench setup --warehouses 1 --keep-buffer-pool >/dev/null
rc=0
bench run --smoke --out "$OUT" "$@" || rc=$?
bench report --results "$OUT" || rc=1
echo "smoke: $(( $(date +%s) - start )) s, exit $rc; report: $OUT/report.md" >&2
exit $rc
