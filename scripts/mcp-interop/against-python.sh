#!/usr/bin/env bash
# Runs client.py against the Python original's own MCP server, to prove the client side before it meets ours:
# a fresh home with a SQLite data file (30 films, a notes table) and another the agent may not use, `queryapigate serve` (REST, for the setup and the
# approval) and `queryapigate mcp` (the MCP server, 5 rows at most per result), then the scripted session.
#   scripts/mcp-interop/against-python.sh SERVER_VENV [CLIENT_VENV]
# SERVER_VENV: a virtualenv with queryapigate[mcp] installed (the original pins mcp<2); CLIENT_VENV (default the
# same): one with the mcp package client.py is to use. Prints client.py's document.
set -euo pipefail
venv=${1:?usage: against-python.sh SERVER_VENV [CLIENT_VENV]}
client_venv=${2:-$venv}
here=$(cd "$(dirname "$0")" && pwd)
dir=$(mktemp -d /tmp/qag-mcp-interop-XXXXXX)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$dir"' EXIT
admin=interop-admin-key-0123456789
free_port() { "$venv/bin/python" -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
rest=$(free_port); mcp=$(free_port)

"$venv/bin/python" - "$dir/data.sqlite" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
c.execute('CREATE TABLE film (film_id INTEGER PRIMARY KEY, title TEXT)')
c.executemany('INSERT INTO film VALUES (?, ?)', [(i, f'Film {i}') for i in range(1, 31)])
c.execute('CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)')
c.commit()
PY
"$venv/bin/python" -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute("CREATE TABLE s (n INTEGER)"); c.commit()' \
    "$dir/other.sqlite"

export QUERYAPIGATE_HOME=$dir/home QUERYAPIGATE_API_KEY=$admin QUERYAPIGATE_ALLOW_WRITES=true \
    QUERYAPIGATE_MCP_MAX_ROWS=5
mkdir -p "$QUERYAPIGATE_HOME"
"$venv/bin/queryapigate" serve --host 127.0.0.1 --port "$rest" >"$dir/serve.log" 2>&1 &
"$venv/bin/queryapigate" mcp --host 127.0.0.1 --port "$mcp" >"$dir/mcp.log" 2>&1 &
for _ in $(seq 100); do
    curl -sf "http://127.0.0.1:$rest/health" >/dev/null && curl -sf "http://127.0.0.1:$mcp/health" >/dev/null && break
    sleep 0.2
done

post() {
    local out
    out=$(curl -s -w '\n%{http_code}' -X POST "http://127.0.0.1:$rest$1" -H "X-API-Key: $admin" \
        -H 'Content-Type: application/json' -d "$2")
    case "${out##*$'\n'}" in 2??) printf '%s' "${out%$'\n'*}" ;; *) echo "POST $1 failed: $out" >&2; exit 1 ;; esac
}
post /api/v1/connections "{\"name\": \"data\", \"db\": \"sqlite\", \"database\": \"$dir/data.sqlite\"}" >/dev/null
post /api/v1/queries '{"name": "film", "description": "One film by its id", "connection_name": "data",
    "sql": "SELECT film_id, title FROM film WHERE film_id = :film_id",
    "parameters": {"film_id": {"type": "int", "min": 1}}, "publish": true}' >/dev/null
post /api/v1/queries '{"name": "films", "description": "Every film", "connection_name": "data",
    "sql": "SELECT film_id, title FROM film ORDER BY film_id", "publish": true}' >/dev/null
post /api/v1/connections "{\"name\": \"other\", \"db\": \"sqlite\", \"database\": \"$dir/other.sqlite\"}" >/dev/null
post /api/v1/queries '{"name": "secret", "description": "Not granted to the agent", "connection_name": "other",
    "sql": "SELECT COUNT(*) AS n FROM s", "publish": true}' >/dev/null
post /api/v1/queries '{"name": "add_note", "description": "Add a note", "connection_name": "data",
    "sql": "INSERT INTO notes (id, text) VALUES (:id, :text)", "agent_writes": "approval", "max_affected_rows": 1,
    "parameters": {"id": {"type": "int", "min": 1, "required": true}, "text": {"type": "str", "required": true}},
    "publish": true}' >/dev/null
key=$(post /api/v1/api-keys '{"name": "agent", "connections": ["data"],
    "queries": ["film", "films", {"name": "add_note", "allow_writes": true}]}' |
    "$venv/bin/python" -c 'import json, sys; print(json.load(sys.stdin)["secret"])')

"$client_venv/bin/python" "$here/client.py" --url "http://127.0.0.1:$mcp/mcp" --key "$key" --admin-key "$admin" \
    --rest-url "http://127.0.0.1:$rest" --read-query film --read-args '{"film_id": 7}' --bad-args '{"film_id": 0}' \
    --denied-query secret --capped-query films --write-query add_note --write-args '{"id": 1, "text": "hello"}' \
    --write-other-args '{"id": 2, "text": "not approved"}'
