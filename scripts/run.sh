#!/usr/bin/env bash
# Builds QueryAPIGate (when the jar is missing or older than the sources) and starts it on its embedded default:
# SQLite store and DuckDB demo database under ./data, API on :8080, admin on :8081.
# Environment: QUERYAPIGATE_PORT, QUERYAPIGATE_ADMIN_PORT, QUERYAPIGATE_HOME, QUERYAPIGATE_ADMIN_KEY,
# QAG_CONFIG (default config/quickstart.yml), QAG_REBUILD=1 to force a build. JVM options: config/jvm.options, then
# QAG_JAVA_OPTS, then the extra arguments.
# JDK AOT cache (JEPs 483/514/515: classes loaded and linked, method profiles): the first start after a build records
# it and writes it when the JVM exits (stop it with Ctrl-C or SIGTERM; writing takes about 10 s); every later start
# uses it and reaches full speed sooner. QAG_AOT_CACHE sets its file (default $QUERYAPIGATE_HOME/queryapigate.aot),
# QAG_AOT_CACHE=off turns it off.
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
aot=${QAG_AOT_CACHE:-${QUERYAPIGATE_HOME:-./data}/queryapigate.aot}
if [ "$aot" != off ] && [[ " ${QAG_JAVA_OPTS:-} $* " != *" -XX:AOTCache"* ]]; then
  mkdir -p "$(dirname "$aot")"
  if [ -f "$aot" ] && [ "$aot" -nt "$jar" ]; then
    jvm_opts+=("-XX:AOTCache=$aot")
  else
    rm -f "$aot"
    echo ">> this start records the JDK AOT cache $aot (written at exit; later starts warm up sooner)"
    jvm_opts+=("-XX:AOTCacheOutput=$aot")
  fi
fi
# shellcheck disable=SC2206
extra=(${QAG_JAVA_OPTS:-})
exec java --enable-native-access=ALL-UNNAMED "${jvm_opts[@]}" "${extra[@]}" "$@" -jar "$jar" server "$config"
