# schemathesis hooks for scripts/schemathesis.sh (loaded through SCHEMATHESIS_HOOKS).
#
# Drops the generated calls whose validity the OpenAPI document cannot state, each for the reason given; nothing else
# is filtered, and the server still answers every one of them as docs/api.md says (400 with a documented code).
import schemathesis

STREAMABLE = {"csv", "tsv", "ndjson", "parquet", "xlsx"}
# A saved query moved to another connection runs its SQL there; where that connection lacks its tables the database
# refuses the statement: 500 query_failed, as documented. The admin run installs the example APIs' connection.
FOREIGN_CONNECTIONS = {"examples"}


def _integral_float(value):
    if isinstance(value, float):
        return value.is_integer()
    if isinstance(value, dict):
        return any(_integral_float(v) for v in value.values())
    if isinstance(value, list):
        return any(_integral_float(v) for v in value)
    return False


@schemathesis.hook
def filter_case(context, case):
    query = case.query or {}
    # A query parameter's schema stands alone: the document cannot say that stream=true takes only the streamable
    # formats and no page or page_size (400 invalid_stream).
    if str(query.get("stream", "")).lower() == "true":
        if str(query.get("format", "json")).lower() not in STREAMABLE:
            return False
        if "page" in query or "page_size" in query:
            return False
    body = case.body if isinstance(case.body, dict) else {}
    if case.operation.path.startswith("/q/") and any(
            isinstance(c, str) and c in FOREIGN_CONNECTIONS
            for c in (query.get("connection_name"), body.get("connection_name"))):
        return False
    # JSON Schema's integer is a number with no fraction, so 7.0 is one; the gateway, as the Python original, takes
    # an integer field only as an integer literal (7) and refuses 7.0 with 400.
    if _integral_float(case.body):
        return False
    return True
