#!/usr/bin/env python3
"""A scripted MCP session with the official Python `mcp` package (PyPI), as an independent client of a QueryAPIGate
MCP server over Streamable HTTP: it prints one JSON document of what it saw, for a test to assert on.

The session: initialize (server name and version, protocol version), list tools, call a saved query, two refusals (a
bad parameter, a query the key is not granted), a saved query past the row cap (truncated, with its note), a write
tool's approval flow (call -> approval_required -> approved through REST with the admin key -> the same call again
with `approval` -> done), and the resources (list, read the first). Every step is recorded even when one fails: a
failed step carries `error` (the exception), and the script still exits 0 once it printed its document; it exits 2
only when it could not connect at all.

    python client.py --url http://127.0.0.1:8080/mcp --key KEY --admin-key ADMIN \
        --read-query film --read-args '{"film_id": 7}' --bad-args '{"film_id": 0}' \
        --denied-query secret_query --capped-query films --capped-args '{}' \
        --write-query add_note --write-args '{"id": 1, "text": "hi"}' --rest-url http://127.0.0.1:8080

Arguments a step needs and is not given skip that step (it is then absent from the document).
"""
import argparse
import asyncio
import json
import sys
import traceback
import urllib.error
import urllib.request

import httpx2
from mcp import Client
from mcp.client.streamable_http import streamable_http_client


def _args():
    p = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    p.add_argument('--url', required=True, help='The MCP endpoint, e.g. http://127.0.0.1:8080/mcp')
    p.add_argument('--key', required=True, help="The agent's API key")
    p.add_argument('--header', default='X-API-Key', help='The header carrying the key (default X-API-Key)')
    p.add_argument('--mode', default='legacy',
                   help="The client's protocol negotiation: legacy (the initialize handshake, default) or auto")
    p.add_argument('--read-query', help='A saved query the key may run')
    p.add_argument('--read-args', default='{}', help='Its arguments, as a JSON object')
    p.add_argument('--bad-args', help="The read query's arguments with a value its rules refuse (a JSON object)")
    p.add_argument('--denied-query', help='A saved query the key is not granted (or that does not exist)')
    p.add_argument('--capped-query', help='A saved query answering more rows than the MCP row cap')
    p.add_argument('--capped-args', default='{}', help='Its arguments, as a JSON object')
    p.add_argument('--write-query', help='A saved query marked agent_writes: approval')
    p.add_argument('--write-args', default='{}', help='Its arguments, as a JSON object')
    p.add_argument('--write-other-args', help='Other arguments, which the approval must not let run (JSON object)')
    p.add_argument('--rest-url', help='The REST API base URL, for approving the write request')
    p.add_argument('--admin-key', help='A key allowed to approve write requests (REST)')
    p.add_argument('--timeout', type=float, default=60.0, help='Seconds for each HTTP request')
    return p.parse_args()


def _error(exc):
    return f'{type(exc).__name__}: {exc}'


def _texts(result):
    return [block.text for block in result.content if getattr(block, 'type', None) == 'text']


def _result(result):
    """A tools/call result as plain JSON: is_error, the structured content, the text blocks, and for an error the
    code its structured content carries."""
    structured = result.structured_content
    shown = {'is_error': bool(result.is_error), 'structured': structured, 'texts': _texts(result)}
    if isinstance(structured, dict):
        if 'rows' in structured and isinstance(structured['rows'], list):
            shown['row_count'] = len(structured['rows'])
        for field in ('truncated', 'note', 'code', 'status', 'request'):
            if field in structured:
                shown[field] = structured[field]
    return shown


async def _step(document, name, action):
    """Runs one step and records what it returned, or the exception it raised."""
    try:
        document[name] = await action()
    except Exception as exc:  # a failed step is recorded, and the session goes on
        document[name] = {'error': _error(exc), 'trace': traceback.format_exc(limit=3)}


def _approve(rest_url, admin_key, header, request_id, timeout):
    """POST /api/v1/write-requests/{id}/approve with the admin key: its status and body."""
    request = urllib.request.Request(f"{rest_url.rstrip('/')}/api/v1/write-requests/{request_id}/approve",
                                     data=b'{}', method='POST',
                                     headers={header: admin_key, 'Content-Type': 'application/json'})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            status, body = response.status, response.read().decode()
    except urllib.error.HTTPError as refused:
        status, body = refused.code, refused.read().decode()
    try:
        body = json.loads(body)
    except ValueError:
        pass
    return {'status': status, 'body': body}


async def session(a):
    document = {'client': {'mcp': _version('mcp'), 'python': sys.version.split()[0]}}
    http = httpx2.AsyncClient(headers={a.header: a.key}, timeout=a.timeout)
    client = Client(streamable_http_client(a.url, http_client=http), mode=a.mode, cache=None)
    try:
        async with client:
            info = client.server_info
            document['initialize'] = {'server_name': info.name if info else None,
                                      'server_version': info.version if info else None,
                                      'protocol_version': client.protocol_version,
                                      'capabilities': client.server_capabilities.model_dump(
                                          mode='json', by_alias=True, exclude_none=True)}
            await run_steps(client, document, a)
    except Exception as exc:
        if 'initialize' not in document:
            document['connect_error'] = _error(exc)
            document['trace'] = traceback.format_exc(limit=5)
        else:
            document['close_error'] = _error(exc)
    finally:
        await http.aclose()
    return document


async def run_steps(client, document, a):
    async def tools():
        listed = await client.list_tools()
        out = []
        for tool in listed.tools:
            hints = tool.annotations
            schema = tool.input_schema or {}
            out.append({'name': tool.name, 'description': tool.description,
                        'read_only': hints.read_only_hint if hints else None,
                        'destructive': hints.destructive_hint if hints else None,
                        'idempotent': hints.idempotent_hint if hints else None,
                        'properties': sorted((schema.get('properties') or {}).keys()),
                        'required': sorted(schema.get('required') or []),
                        'has_output_schema': tool.output_schema is not None})
        return out

    await _step(document, 'tools', tools)

    async def call(name, arguments):
        return _result(await client.call_tool(name, arguments))

    if a.read_query:
        await _step(document, 'read', lambda: call(a.read_query, json.loads(a.read_args)))
    refusals = {}
    if a.read_query and a.bad_args:
        await _step(refusals, 'bad_parameter', lambda: call(a.read_query, json.loads(a.bad_args)))
    if a.denied_query:
        await _step(refusals, 'not_granted', lambda: call(a.denied_query, {}))
    if refusals:
        document['refusals'] = refusals
    if a.capped_query:
        await _step(document, 'capped', lambda: call(a.capped_query, json.loads(a.capped_args)))
    if a.write_query:
        await _step(document, 'write', lambda: write_flow(client, a))

    async def resources():
        listed = await client.list_resources()
        out = {'list': [{'uri': str(r.uri), 'name': r.name, 'mime_type': r.mime_type} for r in listed.resources]}
        if listed.resources:
            read = await client.read_resource(str(listed.resources[0].uri))
            contents = read.contents[0]
            text = getattr(contents, 'text', None) or ''
            out['read'] = {'uri': str(contents.uri), 'mime_type': contents.mime_type, 'length': len(text),
                           'text': text[:2000]}
        return out

    await _step(document, 'resources', resources)


async def write_flow(client, a):
    """call -> approval_required -> approve (REST) -> [other arguments: refused] -> the same call with approval."""
    arguments = json.loads(a.write_args)
    flow = {'first': _result(await client.call_tool(a.write_query, arguments))}
    request_id = flow['first'].get('request')
    if not request_id or not a.rest_url or not a.admin_key:
        return flow
    flow['approve'] = await asyncio.to_thread(_approve, a.rest_url, a.admin_key, a.header, request_id, a.timeout)
    if a.write_other_args:
        other = {**json.loads(a.write_other_args), 'approval': request_id}
        flow['other_arguments'] = _result(await client.call_tool(a.write_query, other))
    flow['approved'] = _result(await client.call_tool(a.write_query, {**arguments, 'approval': request_id}))
    flow['again'] = _result(await client.call_tool(a.write_query, {**arguments, 'approval': request_id}))
    return flow


def _version(name):
    try:
        from importlib.metadata import version
        return version(name)
    except Exception:  # an unusual install: the document says so rather than failing
        return None


def main():
    a = _args()
    document = asyncio.run(session(a))
    print(json.dumps(document, indent=2, sort_keys=True, default=str))
    return 2 if 'connect_error' in document else 0


if __name__ == '__main__':
    sys.exit(main())
