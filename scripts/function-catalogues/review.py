#!/usr/bin/env python3
"""Review aid for the generated catalogues.

    python3 scripts/function-catalogues/review.py [ENGINE...]

Prints, per engine, the number of names per class and every `allowed` name that contains a word worth a second
look (the list the README's review asks for), with its note. Read the complete allowed list as well:
    awk -F'\\t' '$2 == "allowed"' service/src/main/resources/io/queryapigate/guard/functions/ENGINE.tsv
"""
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT_DIR = os.path.join(HERE, "..", "..", "service", "src", "main", "resources", "io", "queryapigate", "guard",
                       "functions")
CLASSES = ["sql_text", "file", "admin", "session", "write", "object_name", "server_state", "internal", "allowed"]
WORDS = re.compile(
    r"query|sql|exec|file|dir|read|write|load|url|http|s3|env|setting|config|set|lock|seed|notify|signal|terminate|"
    r"cancel|backend|slot|wal|replication|stat|privilege|size|relation|table|schema|database|catalog|dict|join|xml|"
    r"import|export|sleep|random|rand|user|role|host|macro|version|system|secret|log|current|connection|session|"
    r"server|cluster|remote|model|pragma|duckdb|sqlite|pg_|eval|shell|process|attach|extension|variable|uuid")


def main(engines):
    engines = engines or ["postgres", "mysql", "clickhouse", "trino", "duckdb", "sqlite"]
    for engine in engines:
        rows = []
        with open(os.path.join(OUT_DIR, engine + ".tsv"), encoding="utf-8") as f:
            for line in f:
                if line.startswith("#") or not line.strip():
                    continue
                parts = line.rstrip("\n").split("\t")
                rows.append((parts[0], parts[1], parts[2] if len(parts) > 2 else ""))
        counts = {c: sum(1 for r in rows if r[1] == c) for c in CLASSES}
        print(f"== {engine}: {len(rows)} names; " + ", ".join(f"{c} {counts[c]}" for c in CLASSES))
        flagged = [r for r in rows if r[1] == "allowed" and WORDS.search(r[0])]
        print(f"   allowed names with a word worth a second look ({len(flagged)}):")
        for name, _, note in flagged:
            print(f"     {name}" + (f"  -- {note}" if note else ""))


if __name__ == "__main__":
    main(sys.argv[1:])
