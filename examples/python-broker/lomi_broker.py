#!/usr/bin/env python3
"""A minimal Lomi broker in Python with only its standard library, written from docs/ alone.

It serves MCP over stdio (one JSON-RPC message a line) and implements four tools of
docs/catalogue.md: lomi_workspace_list, lomi_connect, lomi_settings_read and lomi_events_read (a
broker that admits no operation has an empty feed). Every other tool of the catalogue answers UNKNOWN_TOOL. It is the
kit's proof that docs/ suffice and that nothing in the harness assumes Node:

    lomi-conformance --broker-cmd "python3 examples/python-broker/lomi_broker.py" \
        --tags "@AUTH-01 or @AUTH-02 or @AUTH-04"

Environment (docs/implementers.md, "The environment contract"): LOMI_NATIVE_URL, the simulated
Lomi's native bridge (docs/native-bridge.md). It keeps no receipt store: it admits no operation.
"""
import json
import os
import re
import secrets
import sys
import urllib.error
import urllib.request
from datetime import datetime, timezone

CATALOGUE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "catalogue.json")
TOOLS = {t["name"]: t for t in json.load(open(CATALOGUE, encoding="utf-8"))["tools"]}
SERVED = ["lomi_workspace_list", "lomi_connect", "lomi_events_read", "lomi_settings_read"]
NATIVE = os.environ.get("LOMI_NATIVE_URL", "").rstrip("/")
INSTANCE = "py-" + secrets.token_hex(6)
PAIRING_REQUIRED = "Approve the pending session in Lomi Settings."


class Refusal(Exception):
    def __init__(self, code, message, details=None):
        super().__init__(message)
        self.code, self.message, self.details = code, message, details


def native(path, body):
    """POST to the bridge; a non-2xx answer is Lomi's refusal, passed on with its code."""
    request = urllib.request.Request(NATIVE + path, data=json.dumps(body).encode(), headers={"content-type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as reply:
            return json.loads(reply.read())
    except urllib.error.HTTPError as error:
        refused = json.loads(error.read()).get("error", {})
        raise Refusal(refused.get("code", "NATIVE_FAILURE"), refused.get("message", "Lomi refused"), refused.get("details"))
    except (urllib.error.URLError, OSError) as error:
        raise Refusal("NATIVE_UNAVAILABLE", f"Lomi cannot be reached: {error}")


def check(schema, value, path):
    """The input schema's keywords the catalogue uses for these tools; the first problem, by field."""
    kind = schema.get("type")
    if kind == "object":
        if not isinstance(value, dict):
            raise Refusal("INVALID_ARGUMENT", f"{path or 'arguments'} must be an object", {"field": path or "arguments"})
        for key in value:  # a "__proto__" key is an ordinary key here: unknown like any other
            if key not in schema.get("properties", {}):
                raise Refusal("INVALID_ARGUMENT", f"Unknown field {key!r}", {"field": key})
        for key in schema.get("required", []):
            if key not in value:
                raise Refusal("INVALID_ARGUMENT", f"Field {key!r} is required", {"field": key})
        for key, item in value.items():
            check(schema["properties"][key], item, key)
    elif kind == "string":
        if not isinstance(value, str) or not schema.get("minLength", 0) <= len(value) <= schema.get("maxLength", 1 << 30) or ("pattern" in schema and not re.search(schema["pattern"], value)):
            raise Refusal("INVALID_ARGUMENT", f"Field {path!r} is not a valid string", {"field": path})
    elif kind == "integer":
        if isinstance(value, bool) or not isinstance(value, int) or not schema.get("minimum", -(1 << 60)) <= value <= schema.get("maximum", 1 << 60):
            raise Refusal("INVALID_ARGUMENT", f"Field {path!r} is not a valid integer", {"field": path})


class Session:
    def __init__(self, client_name):
        self.client_name = client_name
        self.connection_id = "conn-" + secrets.token_hex(6)

    def pairing(self):
        paired = native("/native/v1/pairing", {"clientName": self.client_name, "brokerInstanceId": INSTANCE})
        if paired["state"] == "pending":
            raise Refusal("PAIRING_REQUIRED", PAIRING_REQUIRED)
        if paired["state"] == "denied":
            raise Refusal("PAIRING_DENIED", "The user denied this session in Lomi Settings.")
        return paired["pairingId"]

    def lomi_workspace_list(self, args):
        return native("/native/v1/observe", {"pairingId": self.pairing(), "query": {"kind": "workspaces"}})

    def lomi_connect(self, args):
        pairing_id = self.pairing()
        workspace = native("/native/v1/observe", {"pairingId": pairing_id, "query": {"kind": "workspace", "workspaceId": args["workspaceId"]}})
        now_ms = native("/native/v1/clock", {})["now"]
        expires = datetime.fromtimestamp(now_ms / 1000 + 24 * 3600, tz=timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.") + f"{now_ms % 1000:03d}Z"
        return {
            "connectionId": self.connection_id,
            "workspaceId": workspace["workspaceId"],
            "retryEpoch": "epoch-" + secrets.token_hex(8),
            "retryEpochExpiresAt": expires,
            "projects": workspace["projects"],
            "domainRevision": workspace["domainRevision"],
        }

    def lomi_settings_read(self, args):
        return native("/native/v1/observe", {"pairingId": self.pairing(), "query": {"kind": "settings", "workspaceId": args["workspaceId"]}})

    def lomi_events_read(self, args):
        # Refused as lomi_connect would be: an unapproved or unknown workspace has no feed to read.
        native("/native/v1/observe", {"pairingId": self.pairing(), "query": {"kind": "workspace", "workspaceId": args["workspaceId"]}})
        return {"events": [], "nextCursor": args.get("cursor", "0"), "hasMore": False}

    def call(self, name, args):
        if name not in SERVED:
            raise Refusal("UNKNOWN_TOOL", f"This broker has no tool {name}.")
        check(TOOLS[name]["inputSchema"], args, "")
        return getattr(self, name)(args)


def tool_result(envelope):
    # structuredContent and a text block mirroring it; isError exactly for errors (docs/spec.md, ENV).
    return {"content": [{"type": "text", "text": json.dumps(envelope)}], "structuredContent": envelope, "isError": envelope["status"] == "error"}


def answer(session, message):
    method, params = message.get("method"), message.get("params") or {}
    if method == "initialize":
        return {"protocolVersion": params.get("protocolVersion", "2025-06-18"), "capabilities": {"tools": {}}, "serverInfo": {"name": "lomi-python-broker", "version": "0.1.0"}}
    if method == "ping":
        return {}
    if method == "tools/list":
        return {"tools": [{k: TOOLS[n][k] for k in ("name", "title", "description", "inputSchema", "outputSchema", "annotations")} for n in SERVED]}
    if method == "tools/call":
        try:
            data = session.call(params.get("name"), params.get("arguments", {}))
            return tool_result({"controlApiVersion": "1.0", "status": "ok", "data": data})
        except Refusal as refusal:
            envelope = {"controlApiVersion": "1.0", "status": "error", "code": refusal.code, "message": refusal.message}
            if refusal.details:
                envelope["details"] = refusal.details
            return tool_result(envelope)
    raise LookupError(method)


def main():
    session = Session("unknown")
    for line in sys.stdin:
        message = json.loads(line)
        if message.get("method") == "initialize":
            session = Session(message["params"]["clientInfo"]["name"])
        if "id" not in message or "method" not in message:
            continue  # notifications, and replies to requests this broker never makes
        try:
            reply = {"jsonrpc": "2.0", "id": message["id"], "result": answer(session, message)}
        except LookupError:
            reply = {"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32601, "message": "Method not found"}}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
