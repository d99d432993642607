#!/usr/bin/env bash
# Builds QueryAPIGate (when the jar is missing or older than the sources) and starts it on its embedded default:
# SQLite store and DuckDB demo database under ./data, API on :8080, admin on :8081.
# Environment: QUERYAPIGATE_PORT, QUERYAPIGATE_ADMIN_PORT, QUERYAPIGATE_HOME, QUERYAPIGATE_ADMIN_KEY,
# QAG_CONFIG (default config/quickstart.yml), QAG_REBUILD=1 to force a build. JVM options: config/jvm.options, then
# QAG_JAVA_OPTS, then the extra arguments.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/jdk.sh

jar=service/target/queryapigate.jar
if [ "${QAG_REBUILD:-0}" = 1 ] || [ ! -f "$jar" ] || \
   [ -n "$(find pom.xml */pom.xml */src/main config -newer "$jar" -print -quit 2>/dev/null)" ]; then
  echo ">> building $jar with $(java -version 2>&1 | head -1)"
  ./mvnw -q -B -ntp -DskipTests package
fi

config=${QAG_CONFIG:-config/quickstart.yml}
echo ">> starting QueryAPIGate: http://127.0.0.1:${QUERYAPIGATE_PORT:-8080} (admin :${QUERYAPIGATE_ADMIN_PORT:-8081})"
jvm_opts=()
while IFS= read -r line; do
  case "$line" in ''|'#'*) ;; *) jvm_opts+=("$line") ;; esac
done < config/jvm.options
# shellcheck disable=SC2206
extra=(${QAG_JAVA_OPTS:-})
exec java --enable-native-access=ALL-UNNAMED "${jvm_opts[@]}" "${extra[@]}" "$@" -jar "$jar" server "$config"
