#!/usr/bin/env bash
# Source this file (". scripts/jdk.sh") to export JAVA_HOME pointing at a JDK >= 21.
# Order: an existing JAVA_HOME that is new enough, then the newest JDK under /usr/lib/jvm, then `java` on PATH.
# The default `java` on Debian 12 is 17, which cannot build or run QueryAPIGate.

qag_java_major() {  # prints the feature version of the java binary given, or nothing
  "$1" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -1
}

qag_find_jdk() {
  local cand major best="" best_major=0
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
    major=$(qag_java_major "$JAVA_HOME/bin/java")
    if [ -n "$major" ] && [ "$major" -ge 21 ]; then echo "$JAVA_HOME"; return 0; fi
  fi
  for cand in /usr/lib/jvm/*/; do
    cand=${cand%/}
    [ -x "$cand/bin/javac" ] || continue
    major=$(qag_java_major "$cand/bin/java")
    [ -n "$major" ] || continue
    if [ "$major" -ge 21 ] && [ "$major" -gt "$best_major" ]; then best=$cand; best_major=$major; fi
  done
  if [ -n "$best" ]; then echo "$best"; return 0; fi
  if command -v javac >/dev/null 2>&1; then
    cand=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    major=$(qag_java_major "$cand/bin/java")
    if [ -n "$major" ] && [ "$major" -ge 21 ]; then echo "$cand"; return 0; fi
  fi
  return 1
}

if QAG_JDK=$(qag_find_jdk); then
  export JAVA_HOME="$QAG_JDK"
  export PATH="$JAVA_HOME/bin:$PATH"
else
  echo "QueryAPIGate needs a JDK 21 or newer (Java 25 is the tested runtime)." >&2
  echo "Install one (for example: apt-get install openjdk-21-jdk-headless, or Temurin 25) or set JAVA_HOME." >&2
  return 1 2>/dev/null || exit 1
fi
