# Sourced by run-smoke.sh and run-soak.sh from the repository root, after scripts/jdk.sh and with ID set: builds the
# harness and the service jar when missing, and defines `bench`, the harness on databases (qag_bench_<ID>_*) and a
# read-only user of this run's own, so that runs beside each other cannot drop each other's data.
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
bench() { java -jar "$JAR" --prefix "qag_bench_${ID}_" --reader-user "qag_bench_ro_${ID}" "$@"; }
