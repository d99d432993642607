#!/usr/bin/env python3
"""Generates the SQL guard's function catalogues from the engines' own function lists.

    python3 scripts/function-catalogues/generate.py ENGINE [ENGINE...]      (or: all)

ENGINE is one of postgres, mysql, clickhouse, trino, duckdb, sqlite. Each engine's list is read live (see the
connection settings below), every name gets a class from the automatic rules of this file, and then the
reviewed rules of ENGINE.rules.tsv are applied on top. The result is written to
service/src/main/resources/io/queryapigate/guard/functions/ENGINE.tsv. README.md in this folder explains
the rules and how to review a new engine version.

Connection settings (environment variables, defaults are the local test servers):
  PGHOST PGPORT PGUSER PGPASSWORD PGDATABASE          (127.0.0.1 5432 test test test)  -- uses psql
  MYSQL_HOST MYSQL_PORT MYSQL_USER MYSQL_PWD MYSQL_DB (127.0.0.1 3306 test test test)  -- uses mysql
  CLICKHOUSE_URL                                      (http://127.0.0.1:8123/)
  TRINO_URL TRINO_USER                                (http://127.0.0.1:18080 test)
  JAVA                                                (java 22+ that runs single-file programs)
  DUCKDB_JAR SQLITE_JAR                               (the driver versions the service ships, from ~/.m2)
"""
import csv
import datetime
import io
import json
import os
import re
import subprocess
import sys
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.abspath(os.path.join(HERE, "..", ".."))
OUT_DIR = os.path.join(REPO, "service", "src", "main", "resources", "io", "queryapigate", "guard", "functions")

# Most severe first. A name whose overloads differ gets the most severe class of any of them.
CLASSES = ["sql_text", "file", "admin", "session", "write", "object_name", "server_state", "internal", "allowed"]
SEVERITY = {c: i for i, c in enumerate(CLASSES)}

CLASS_TEXT = {
    "sql_text": "runs SQL given as text, or reads a table/query/dictionary named by a string",
    "file": "reads or writes files, directories, network, URLs, external systems or the environment",
    "admin": "signals or administers other sessions or the server",
    "session": "leaves state in the session that outlives the statement (settings, variables, seeds, locks)",
    "write": "changes persistent data or server state",
    "object_name": "takes or resolves an object's name or OID, or reads another object than its arguments",
    "server_state": "reads server, session, activity, statistics or configuration state",
    "internal": "not meant to be called from SQL (type I/O, handlers, support functions, pseudo-types)",
    "allowed": "computes only from its arguments (and harmless clock/random/uuid sources)",
}

# A note that starts with this marks a name that the automatic rules could not settle: the generator
# gives it a class that is refused for every read-only caller and fails until a reviewed rule covers it.
UNREVIEWED = "NOT REVIEWED"


# A name that the automatic rules would allow but that contains one of these words needs an exact reviewed rule:
# this is what catches a new engine version's new file/network/SQL functions.
SUSPICIOUS = re.compile(
    r"query|sql|exec|eval|file|dir|read|write|load|url|http|s3|env(?!elope)|setting|config|(?<!b)lock|seed|notify|signal|"
    r"terminate|cancel|backend|slot|wal|replica|privilege|dict|join|import|export|system|host|macro|secret|shell|"
    r"command|process|server|cluster|remote|(?<!s)table|schema|database|catalog|connect|attach|extension|socket|user|"
    r"role|session|variable|sleep|random|rand")


def worse(a, b):
    return a if SEVERITY[a[0]] <= SEVERITY[b[0]] else b


# ---------------------------------------------------------------------------------------------------------------
# rules files

class Rules:
    """ENGINE.rules.tsv: `pattern<TAB>class<TAB>note`. pattern is an exact name, `prefix*`, or `~regex` (full
    match). `+name` adds a name that the engine's own list does not have (e.g. a function of a common extension).
    Exact names win over patterns; among patterns the first in the file wins. A pattern may not make names
    `allowed`: only exact names can be allowed."""

    def __init__(self, engine):
        self.path = os.path.join(HERE, engine + ".rules.tsv")
        self.exact, self.patterns, self.added, self.used = {}, [], {}, set()
        with open(self.path, encoding="utf-8") as f:
            for lineno, line in enumerate(f, 1):
                line = line.rstrip("\n")
                if not line.strip() or line.startswith("#"):
                    continue
                parts = line.split("\t")
                if len(parts) < 2 or parts[1] not in SEVERITY:
                    raise SystemExit(f"{self.path}:{lineno}: bad rule: {line!r}")
                pat, cls, note = parts[0].strip(), parts[1], (parts[2].strip() if len(parts) > 2 else "")
                key = (lineno, pat)
                if pat.startswith("+"):
                    self.added[pat[1:].lower()] = (cls, note, key)
                elif pat.startswith("~") or pat.endswith("*"):
                    if cls == "allowed":
                        raise SystemExit(f"{self.path}:{lineno}: only exact names may be allowed: {pat}")
                    rx = re.compile(pat[1:] if pat.startswith("~") else re.escape(pat[:-1].lower()) + ".*")
                    self.patterns.append((rx, cls, note, key))
                else:
                    if pat.lower() in self.exact:
                        raise SystemExit(f"{self.path}:{lineno}: duplicate rule for {pat}")
                    self.exact[pat.lower()] = (cls, note, key)

    def match(self, name):
        if name in self.exact:
            cls, note, key = self.exact[name]
            self.used.add(key)
            return cls, note
        for rx, cls, note, key in self.patterns:
            if rx.fullmatch(name):
                self.used.add(key)
                return cls, note
        return None

    def unused(self):
        keys = [v[2] for v in self.exact.values()] + [p[3] for p in self.patterns]
        return sorted(k for k in keys if k not in self.used)


# ---------------------------------------------------------------------------------------------------------------
# helpers

def run(cmd, **kw):
    return subprocess.run(cmd, check=True, capture_output=True, text=True, **kw).stdout


def tsv(text):
    return list(csv.DictReader(io.StringIO(text), delimiter="\t", quoting=csv.QUOTE_NONE))


def java_dump(jar, url, *sql):
    java = os.environ.get("JAVA", "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java")
    return tsv(run([java, "--enable-native-access=ALL-UNNAMED", "-cp", jar, os.path.join(HERE, "Dump.java"), url,
                    *sql]))


def m2(path):
    return os.path.join(os.path.expanduser("~"), ".m2", "repository", path)


# ---------------------------------------------------------------------------------------------------------------
# PostgreSQL

PG_REG_TYPES = {"regclass", "regproc", "regprocedure", "regoper", "regoperator", "regtype", "regconfig",
                "regdictionary", "regnamespace", "regrole", "regcollation", "oid", "oidvector"}
PG_INTERNAL_TYPES = {"internal", "cstring", "trigger", "event_trigger", "language_handler", "fdw_handler",
                     "index_am_handler", "table_am_handler", "tsm_handler"}


def pg_env():
    env = dict(os.environ)
    for k, v in {"PGHOST": "127.0.0.1", "PGPORT": "5432", "PGUSER": "test", "PGPASSWORD": "test",
                 "PGDATABASE": "test"}.items():
        env.setdefault(k, v)
    return env


def postgres():
    env = pg_env()
    version = run(["psql", "-Atc", "SELECT version()"], env=env).strip()
    rows = tsv(run(["psql", "-A", "-F", "\t", "-P", "footer=off", "-f", os.path.join(HERE, "postgres.sql")],
                   env=env))
    names = {}
    for r in rows:
        names.setdefault(r["name"], []).append(r)

    def auto(name, overloads):
        best = None
        for r in overloads:
            ins = {t.removesuffix("[]") for t in r["argtypes"].split(",") if t}
            outs = {t.removesuffix("[]") for t in r["outtypes"].split(",") if t} | {r["rettype"].removesuffix("[]")}
            # an object reference taken as an argument, or produced as the result (a name resolver); oid result
            # columns alone (catalog listings) do not count here
            reg = (ins & PG_REG_TYPES) | ((outs & (PG_REG_TYPES - {"oid"})) if r["retset"] == "f" else set())
            pseudo = (ins | outs) & PG_INTERNAL_TYPES
            found = []
            if r["schema"] == "information_schema":
                found.append(("internal", "information_schema helper for its views"))
            if r["kind"] == "p":
                found.append(("internal", "procedure (CALL only)"))
            if reg:
                found.append(("object_name", "takes or returns an object OID/reg* reference (" + ",".join(sorted(reg))
                              + ")"))
            if pseudo:
                found.append(("internal", "pseudo-type " + ",".join(sorted(pseudo))))
            if r["support"]:
                found.append(("internal", r["support"]))
            if r["volatility"] == "v" and not pseudo and not r["support"]:
                found.append(("session", UNREVIEWED + ": volatile"))
            if not found and name.startswith("pg_"):
                found.append(("server_state", "pg_ function"))
            c = ("allowed", "")
            for f in found:
                c = worse(c, f)
            best = c if best is None else worse(best, c)
        return best

    info = {n: {"kinds": {r["kind"] for r in o}} for n, o in names.items()}
    return version, names, auto, info


# ---------------------------------------------------------------------------------------------------------------
# MariaDB / MySQL

def mysql_cmd(sql, database=None):
    e = os.environ
    cmd = ["mysql", "-h" + e.get("MYSQL_HOST", "127.0.0.1"), "-P" + e.get("MYSQL_PORT", "3306"),
           "-u" + e.get("MYSQL_USER", "test"), "--batch", "--raw", "-e", sql]
    if database:
        cmd.append(database)
    env = dict(e)
    env.setdefault("MYSQL_PWD", "test")
    return subprocess.run(cmd, capture_output=True, text=True, errors="replace", env=env)


def mysql_probe(name, special=None):
    """True when NAME is a function of the server: some call with 0..3 arguments or an identifier succeeds or fails
    with another error than 'does not exist' (1305, 1630) or a syntax error (1064). (A grammar form such as
    POLYGON(...) is 'does not exist' with no arguments and a wrong argument with one.)"""
    forms = [special] if special else [f"SELECT {name}({a})" for a in ("", "1", "1,1", "1,1,1", "x")]
    for sql in forms:
        # Each probe is its own session: a lock or variable a probe might leave behind dies with it.
        p = mysql_cmd(sql, os.environ.get("MYSQL_DB", "test"))
        if p.returncode == 0:
            return True
        m = re.search(r"ERROR (\d+)", p.stderr)
        code = int(m.group(1)) if m else 0
        if code not in (1064, 1305, 1630):  # wrong parameter count, unknown column or sequence, ...: the function exists
            return True
    return False


# Function forms that the server's grammar (sql_yacc.yy) parses itself, so that neither SQL_FUNCTIONS nor the
# native function registry has them; each is kept only if the probe shows the server accepts it. A value is the
# probe for a form that needs more than plain arguments.
MYSQL_GRAMMAR_FUNCTIONS = {n: None for n in (
    "ascii", "avg", "binary", "case", "char", "charset", "coalesce", "collation", "column_add", "column_create",
    "column_delete", "contains", "convert", "current_date", "current_role", "current_time", "current_timestamp",
    "current_user", "database", "date", "day", "default", "exists", "format", "geometrycollection", "hour", "if",
    "insert", "interval", "lastval", "left", "linestring", "localtime", "localtimestamp", "microsecond", "minute",
    "mod", "month", "multilinestring", "multipoint", "multipolygon", "nextval", "old_password", "password",
    "point", "polygon", "quarter", "repeat", "replace", "reverse", "right", "row", "row_count", "rownum", "second",
    "setval", "sysdate", "time", "timestamp", "truncate", "user", "utc_date", "utc_time", "utc_timestamp", "value",
    "values", "week", "weight_string", "within", "year", "source_pos_wait", "uuid_v4", "uuid_v7")}
MYSQL_GRAMMAR_FUNCTIONS.update({
    "row_number": "SELECT row_number() OVER ()",
    "last_value": "SELECT last_value(1) OVER ()",
    "json_table": "SELECT * FROM json_table('[]', '$[*]' COLUMNS (a INT PATH '$')) t",
    "column_get": "SELECT column_get(column_create(1, 2), 1 AS INT)",
    "get_format": "SELECT get_format(DATE, 'USA')",
    "timestampadd": "SELECT timestampadd(DAY, 1, '2020-01-01')",
    "timestampdiff": "SELECT timestampdiff(DAY, '2020-01-01', '2020-01-02')",
    "match": "SELECT match(x) AGAINST ('a') FROM (SELECT 'a' AS x) t",
    "cast": "SELECT cast(1 AS INT)",
    "insert": "SELECT insert('abc', 1, 1, 'x')",
    "setval": "SELECT setval(x, 1)",
})


def mysql():
    version = mysql_cmd("SELECT version()").stdout.split("\n")[1].strip()
    sql_functions = {l.strip().lower() for l in mysql_cmd(
        "SELECT FUNCTION FROM information_schema.SQL_FUNCTIONS").stdout.split("\n")[1:] if l.strip()}
    help_rows = tsv(mysql_cmd(
        "SELECT t.name AS name, c.name AS category FROM mysql.help_topic t "
        "JOIN mysql.help_category c ON c.help_category_id = t.help_category_id").stdout)
    categories = {}
    for r in help_rows:
        n = r["name"].replace("\\\\", "\\").replace("\\_", "_").strip().lower()
        n = re.sub(r" (function|operator)$", "", n)
        if re.fullmatch(r"[a-z_][a-z0-9_]*", n):
            categories.setdefault(n, set()).add(r["category"])
    sys_routines = tsv(mysql_cmd(
        "SELECT lower(routine_name) AS name, routine_type AS type FROM information_schema.ROUTINES "
        "WHERE routine_schema = 'sys' AND routine_type = 'FUNCTION'").stdout)
    rules = Rules("mysql")
    candidates = (set(categories) | set(rules.exact) | set(MYSQL_GRAMMAR_FUNCTIONS)) - sql_functions
    probed = {n for n in sorted(candidates) if mysql_probe(n, MYSQL_GRAMMAR_FUNCTIONS.get(n))}
    names = {}
    for n in sql_functions | probed:
        names[n] = [{"source": "SQL_FUNCTIONS" if n in sql_functions else "probe",
                     "categories": ",".join(sorted(categories.get(n, ())))}]
    sys_names = {r["name"] for r in sys_routines}
    for n in sys_names:
        names.setdefault(n, []).append({"source": "sys", "categories": "sys schema"})
    print(f"mysql: {len(sql_functions)} from SQL_FUNCTIONS, {len(probed)} more found by probing "
          f"{len(candidates)} help_topic/rule names, {len(sys_names)} sys schema functions", file=sys.stderr)

    def auto(name, overloads):
        cats = ",".join(o["categories"] for o in overloads)
        if any(o["source"] == "sys" for o in overloads):
            return ("server_state", "sys schema stored function (reads performance_schema/sys config)")
        if "Information Functions" in cats or "Miscellaneous Functions" in cats or "Administration" in cats:
            return ("session", UNREVIEWED + ": help category " + cats)
        return ("allowed", "")

    return version, names, auto, {}


# ---------------------------------------------------------------------------------------------------------------
# ClickHouse

def clickhouse_query(sql):
    url = os.environ.get("CLICKHOUSE_URL", "http://127.0.0.1:8123/")
    with urllib.request.urlopen(urllib.request.Request(url, data=sql.encode())) as r:
        return r.read().decode()


def clickhouse():
    version = clickhouse_query("SELECT version()").strip()
    names = {}
    for r in tsv(clickhouse_query("SELECT name, is_aggregate, case_insensitive, alias_to FROM system.functions "
                                  "FORMAT TSVWithNames")):
        names.setdefault(r["name"].lower(), []).append(dict(r, kind="aggregate" if r["is_aggregate"] == "1"
                                                             else "scalar"))
    for r in tsv(clickhouse_query("SELECT name FROM system.table_functions FORMAT TSVWithNames")):
        names.setdefault(r["name"].lower(), []).append(dict(r, kind="table"))

    def auto(name, overloads):
        if any(o["kind"] == "table" for o in overloads):
            return ("file", UNREVIEWED + ": table function")
        return ("allowed", "")

    return "ClickHouse " + version, names, auto, {}


# ---------------------------------------------------------------------------------------------------------------
# Trino

def trino_query(sql):
    server = os.environ.get("TRINO_URL", "http://127.0.0.1:18080")
    headers = {"X-Trino-User": os.environ.get("TRINO_USER", "test")}
    res = json.load(urllib.request.urlopen(urllib.request.Request(server + "/v1/statement", data=sql.encode(),
                                                                  headers=headers)))
    cols, rows = None, []
    while True:
        if "error" in res:
            raise SystemExit("trino: " + res["error"]["message"])
        if res.get("columns"):
            cols = [c["name"] for c in res["columns"]]
        rows += res.get("data", [])
        if "nextUri" not in res:
            return [dict(zip(cols, r)) for r in rows]
        res = json.load(urllib.request.urlopen(urllib.request.Request(res["nextUri"], headers=headers)))


def trino():
    version = "Trino " + trino_query("SELECT node_version FROM system.runtime.nodes WHERE coordinator")[0][
        "node_version"]
    names = {}
    for r in trino_query("SHOW FUNCTIONS"):
        names.setdefault(r["Function"].lower(), []).append(r)

    def auto(name, overloads):
        if any(o["Function Type"] == "table" for o in overloads):
            return ("file", UNREVIEWED + ": table function")
        if any(str(o["Deterministic"]).lower() != "true" for o in overloads):
            return ("session", UNREVIEWED + ": not deterministic")
        return ("allowed", "")

    return version, names, auto, {}


# ---------------------------------------------------------------------------------------------------------------
# DuckDB

DUCKDB_JAR = "org/duckdb/duckdb_jdbc/1.5.6.0/duckdb_jdbc-1.5.6.0.jar"


def duckdb():
    jar = os.environ.get("DUCKDB_JAR", m2(DUCKDB_JAR))
    version = "DuckDB " + java_dump(jar, "jdbc:duckdb:", "SELECT version() AS v")[0]["v"] + " (duckdb_jdbc " + \
        os.path.basename(jar).removeprefix("duckdb_jdbc-").removesuffix(".jar") + ")"
    exts = java_dump(jar, "jdbc:duckdb:", "SELECT extension_name, install_mode FROM duckdb_extensions() "
                     "WHERE loaded ORDER BY 1")
    version += "; extensions loaded: " + ", ".join(f"{e['extension_name']}" for e in exts)
    rows = java_dump(jar, "jdbc:duckdb:",
                     "SELECT schema_name, function_name, function_type, has_side_effects, stability, internal, "
                     "coalesce(replace(replace(macro_definition, chr(9), ' '), chr(10), ' '), '') AS macro "
                     "FROM duckdb_functions()")
    names = {}
    for r in rows:
        names.setdefault(r["function_name"].lower(), []).append(r)

    def auto(name, overloads):
        best = None
        for r in overloads:
            if r["has_side_effects"] == "true":
                c = ("write", UNREVIEWED + ": has side effects")
            elif r["function_type"] in ("table", "table_macro"):
                c = ("file", UNREVIEWED + ": table function")
            elif r["function_type"] == "pragma":
                c = ("session", UNREVIEWED + ": pragma")
            elif r["stability"] == "VOLATILE":
                c = ("session", UNREVIEWED + ": volatile")
            elif name.startswith("duckdb_") or name.startswith("pragma_"):
                c = ("server_state", "introspection")
            else:
                c = ("allowed", "")
            best = c if best is None else worse(best, c)
        return best

    return version, names, auto, {}


DUCKDB_BY_NAME = {"list_aggr", "list_aggregate", "array_aggr", "array_aggregate", "aggregate"}


def duckdb_macro_refs(names):
    """Function names that a macro's body calls. A call of an aggregate-by-name function (list_aggr(l, 'sum'))
    with a constant name counts as a call of that aggregate, not of list_aggr."""
    refs = {}
    by_name = re.compile(r"\b(?:" + "|".join(sorted(DUCKDB_BY_NAME)) + r")\((?:[^()]|\([^()]*\))*?,\s*'([A-Za-z_]+)'")
    for n, overloads in names.items():
        for r in overloads:
            body = r.get("macro", "")
            if body:
                constant = [m.lower() for m in by_name.findall(body)]
                rest = by_name.sub("", body)
                called = {m.lower() for m in re.findall(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(", rest)}
                refs.setdefault(n, set()).update(called | set(constant))
    return refs


# ---------------------------------------------------------------------------------------------------------------
# SQLite

SQLITE_JAR = "org/xerial/sqlite-jdbc/3.54.1.0/sqlite-jdbc-3.54.1.0.jar"
SQLITE_DETERMINISTIC, SQLITE_DIRECTONLY = 0x800, 0x80000


def sqlite():
    jar = os.environ.get("SQLITE_JAR", m2(SQLITE_JAR))
    v = java_dump(jar, "jdbc:sqlite::memory:", "SELECT sqlite_version() AS v, sqlite_source_id() AS s")[0]
    version = f"SQLite {v['v']} ({v['s'][:19]}; sqlite-jdbc " + \
        os.path.basename(jar).removeprefix("sqlite-jdbc-").removesuffix(".jar") + ")"
    names = {}
    for r in java_dump(jar, "jdbc:sqlite::memory:",
                       "SELECT name, builtin, type, narg, flags FROM pragma_function_list"):
        names.setdefault(r["name"].lower(), []).append(r)
    # Table-valued functions: eponymous virtual tables. The pragma ones exist for every pragma that returns
    # rows without side effects; the others are probed from a list of the amalgamation's eponymous modules.
    pragmas = [r["name"] for r in java_dump(jar, "jdbc:sqlite::memory:", "SELECT name FROM pragma_pragma_list")]
    candidates = ["pragma_" + p for p in pragmas] + ["json_each", "json_tree", "jsonb_each", "jsonb_tree", "dbstat",
                                                      "generate_series", "sqlite_dbpage", "sqlite_stmt", "carray",
                                                      "fts3tokenize", "fts5vocab", "completion", "zipfile"]
    probes = java_dump(jar, "jdbc:sqlite::memory:", "--probe", *[f"SELECT 1 AS x FROM {c} LIMIT 0" for c in candidates])
    for c, p in zip(candidates, probes):
        if p["result"] == "ok":
            names.setdefault(c, []).append({"name": c, "builtin": "1", "type": "t", "narg": "-1", "flags": "0"})

    def auto(name, overloads):
        best = None
        for r in overloads:
            flags = int(r["flags"] or 0)
            if r["type"] == "t":
                c = ("file", UNREVIEWED + ": table-valued function")
            elif flags & SQLITE_DIRECTONLY:
                c = ("session", UNREVIEWED + ": SQLITE_DIRECTONLY")
            elif r["builtin"] != "1":
                c = ("session", UNREVIEWED + ": not a core built-in (extension or driver function)")
            elif not flags & SQLITE_DETERMINISTIC and r["type"] == "s":
                c = ("session", UNREVIEWED + ": not deterministic")
            else:
                c = ("allowed", "")
            best = c if best is None else worse(best, c)
        return best

    return version, names, auto, {}


# ---------------------------------------------------------------------------------------------------------------

ENGINES = {"postgres": postgres, "mysql": mysql, "clickhouse": clickhouse, "trino": trino, "duckdb": duckdb,
           "sqlite": sqlite}


def generate(engine):
    rules = Rules(engine)
    version, names, auto, _ = ENGINES[engine]()
    result, lowered = {}, []
    for name, overloads in names.items():
        result[name] = auto(name, overloads)
    if engine == "duckdb":  # a macro is as severe as the worst function its body calls
        refs = duckdb_macro_refs(names)
    for name, (cls, note) in list(result.items()):
        ruled = rules.match(name)
        if ruled:
            if SEVERITY[ruled[0]] > SEVERITY[cls] and not note.startswith(UNREVIEWED):
                lowered.append(f"{name}: {cls} -> {ruled[0]}")
            result[name] = (ruled[0], ruled[1] or (note if not note.startswith(UNREVIEWED) else ""))
    if engine == "duckdb":
        for _ in range(5):
            changed = False
            for name, called in refs.items():
                if rules.match(name):
                    continue  # a reviewed rule decides
                for c in called:
                    if c in result and c != name and SEVERITY[result[c][0]] < SEVERITY[result[name][0]]:
                        result[name] = (result[c][0], f"macro calling {c}")
                        changed = True
            if not changed:
                break
    for name, (cls, note) in list(result.items()):
        m = SUSPICIOUS.search(name)
        if cls == "allowed" and m and name not in rules.exact:
            result[name] = ("session", f"{UNREVIEWED}: automatic rules allow it but the name contains '{m.group(0)}'")
    for name, (cls, note, _) in rules.added.items():
        if name in result:
            raise SystemExit(f"{engine}: +{name} is in the engine's own list; use an exact rule")
        result[name] = (cls, note)

    unreviewed = sorted(n for n, (c, note) in result.items() if note.startswith(UNREVIEWED))
    missing_note = sorted(n for n, (c, note) in result.items() if c != "allowed" and not note)

    path = os.path.join(OUT_DIR, engine + ".tsv")
    os.makedirs(OUT_DIR, exist_ok=True)
    counts = {c: sum(1 for v in result.values() if v[0] == c) for c in CLASSES}
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"# QueryAPIGate SQL guard function catalogue: {engine}\n")
        f.write(f"# generated from: {version}\n")
        f.write(f"# date: {datetime.date.today().isoformat()}\n")
        f.write(f"# regenerate: python3 scripts/function-catalogues/generate.py {engine}\n")
        f.write(f"# reviewed: automatic rules of generate.py + scripts/function-catalogues/{engine}.rules.tsv; "
                f"the allowed list was read in full (scripts/function-catalogues/README.md)\n")
        f.write("# format: name<TAB>class[<TAB>note]; one line per name, sorted; classes, most severe first: "
                + ", ".join(CLASSES) + "\n")
        f.write("# counts: " + ", ".join(f"{c} {counts[c]}" for c in CLASSES) + f"; total {len(result)}\n")
        for name in sorted(result):
            cls, note = result[name]
            f.write(f"{name}\t{cls}" + (f"\t{note}" if note else "") + "\n")

    print(f"{engine}: wrote {os.path.relpath(path, REPO)}: {len(result)} names; "
          + ", ".join(f"{c} {counts[c]}" for c in CLASSES))
    for key in rules.unused():
        print(f"  rule matches no name: {os.path.basename(rules.path)}:{key[0]}: {key[1]}")
    if lowered:
        print(f"  {len(lowered)} reviewed rules lower the automatic class (check these when the engine changes):")
        for line in sorted(lowered):
            print("    " + line)
    if missing_note:
        print(f"  {len(missing_note)} non-allowed names without a note: " + " ".join(missing_note))
    if unreviewed:
        print(f"  {len(unreviewed)} NAMES NEED A REVIEWED RULE: " + " ".join(unreviewed))
        return False
    return True


def main(argv):
    engines = list(ENGINES) if argv == ["all"] else argv
    if not engines or any(e not in ENGINES for e in engines):
        raise SystemExit(__doc__)
    ok = all([generate(e) for e in engines])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main(sys.argv[1:])
