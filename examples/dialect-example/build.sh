#!/usr/bin/env bash
# Builds the Derby dialect example as a third party would, against the SPI and testkit jars the QueryAPIGate reactor
# has just built (dialect-spi/target, dialect-testkit/target), without installing anything into ~/.m2:
#   1. picks a JDK >= 21 (scripts/jdk.sh),
#   2. installs those two jars and the parent pom they name into a private local repository,
#      target/local-repo, with install:install-file,
#   3. runs the example's own build, `mvn package` by default (its tests included), with that repository chained
#      in front of the user's (Maven 3.9's maven.repo.local.tail: everything else, Derby and JUnit included, is read
#      from ~/.m2/repository or downloaded into target/local-repo).
# The plugin folder is then in target/plugin/derby/. Extra arguments replace the goals, e.g. `build.sh clean package`
# or `build.sh package -Dtest=DerbySecurityTest`.
# Needs the reactor's jars first:  ./mvnw -pl dialect-spi,dialect-testkit -am package -DskipTests
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
. "$ROOT/scripts/jdk.sh"

VERSION=$(sed -n 's:^  <version>\(.*\)</version>:\1:p' "$ROOT/pom.xml" | head -1)
SPI="$ROOT/dialect-spi/target/queryapigate-dialect-spi-$VERSION.jar"
TESTKIT="$ROOT/dialect-testkit/target/queryapigate-dialect-testkit-$VERSION.jar"
for jar in "$SPI" "$TESTKIT"; do
  if [ ! -f "$jar" ]; then
    echo "build.sh: $jar is missing; build it first: ./mvnw -pl dialect-spi,dialect-testkit -am package -DskipTests" >&2
    exit 1
  fi
done

REPO="$HERE/target/local-repo"
MVN=("$ROOT/mvnw" -B -ntp -f "$HERE/pom.xml" "-Dmaven.repo.local=$REPO"
     "-Dmaven.repo.local.tail=${QAG_M2_REPOSITORY:-$HOME/.m2/repository}")

# `clean` first, on its own: the private repository lives in target/ and must outlive it
if [ "${1:-}" = clean ]; then
  "${MVN[@]}" -q clean
  shift
fi
rm -rf "$HERE/target/plugin"

"${MVN[@]}" -q install:install-file -Dfile="$ROOT/pom.xml" -DpomFile="$ROOT/pom.xml" -Dpackaging=pom
"${MVN[@]}" -q install:install-file -Dfile="$SPI" -DpomFile="$ROOT/dialect-spi/pom.xml"
"${MVN[@]}" -q install:install-file -Dfile="$TESTKIT" -DpomFile="$ROOT/dialect-testkit/pom.xml"

if [ $# -eq 0 ]; then
  set -- package
fi
"${MVN[@]}" "$@"
ls "$HERE/target/plugin/derby" >/dev/null 2>&1 && echo "build.sh: plugin folder $HERE/target/plugin/derby:" \
  && ls "$HERE/target/plugin/derby" | sed 's/^/  /'
