"""Hostile input on the wire: malformed JSON-RPC lines get a JSON-RPC error (the SDK
alone drops them without an answer), bad requests get clear errors, and the server
keeps serving; a client that leaves mid-request ends the server quietly."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from mcp.shared.exceptions import MCPError
from mcp_client_helpers import skills_get

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "raw", "version": "0"},
    },
}


def _server(project, environment):
    env = {key: value for key, value in os.environ.items() if not key.startswith("DSH_")}
    env.update(environment)
    return subprocess.Popen(
        [sys.executable, "-m", "skilldeck", "mcp", "--cwd", str(project)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )


def _call(request_id, name):
    return {
        "jsonrpc": "2.0",
        "id": request_id,
        "method": "tools/call",
        "params": {"name": "skill", "arguments": {"name": name}},
    }


def test_malformed_lines_get_errors_and_the_server_serves_on(project, environment):
    lines = [
        b"{not json",
        json.dumps(INITIALIZE).encode(),
        b'{"jsonrpc":"2.0","method":"notifications/initialized"}',
        b"\xff\xfe\x00 binary",
        b"[1, 2, 3]",
        b'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":5}}',
        b'{"jsonrpc":"2.0","id":4,"method":"no/such"}',
        json.dumps(_call(5, "X" * 100_000)).encode(),
        json.dumps(_call(6, "code-review")).encode(),
    ]
    server = _server(project, environment)
    server.stdin.write(b"\n".join(lines) + b"\n")
    server.stdin.flush()
    answers = [json.loads(server.stdout.readline()) for _ in range(8)]  # one per bad line
    _, stderr = server.communicate(timeout=60)  # or request, then EOF: the host is gone
    assert server.returncode == 0, stderr.decode()
    by_id = {answer["id"]: answer for answer in answers if answer["id"] is not None}
    errors = [answer["error"] for answer in answers if answer["id"] is None]
    assert errors == [
        {"code": -32700, "message": "Parse error: the line is not valid JSON"},
        {"code": -32700, "message": "Parse error: the line is not valid JSON"},
        {
            "code": -32600,
            "message": "Invalid request: the line is JSON but not a JSON-RPC 2.0 message",
        },
    ]
    assert by_id[1]["result"]["serverInfo"]["name"] == "skilldeck"
    assert by_id[3]["error"]["code"] == -32602
    assert by_id[4]["error"] == {"code": -32601, "message": "Method not found", "data": "no/such"}
    huge = by_id[5]["result"]
    assert huge["isError"] is True
    assert huge["content"][0]["text"].startswith('Error: invalid skill name: got "' + "X" * 80)
    assert len(huge["content"][0]["text"]) < 300  # the name is shown cut, not echoed whole
    assert by_id[6]["result"]["isError"] is False
    assert by_id[6]["result"]["content"][0]["text"].startswith('<skill_content name="code-review">')


def test_a_client_that_leaves_mid_request_ends_the_server_quietly(project, environment):
    server = _server(project, environment)
    request = json.dumps(INITIALIZE).encode() + b"\n" + json.dumps(_call(2, "code-review")).encode()
    server.stdin.write(request + b"\n")
    server.stdin.close()  # gone before reading any answer
    server.stdout.close()
    assert server.wait(timeout=30) == 0
    stderr = server.stderr.read().decode()
    server.stderr.close()
    assert "Traceback" not in stderr


async def test_errors_show_a_long_name_cut_not_echoed_whole(connect):
    """A well-formed name of 100,000 characters (kebab-case has no length limit) is shown
    cut at 80 characters, as an invalid one is, in every error that names it."""
    name = "a" * 100_000
    cut = "a" * 80 + "..."
    async with connect("auto") as client:
        tool = await client.call_tool("skill", {"name": name})
        assert tool.is_error
        assert tool.content[0].text == (
            f'Error: skill "{cut}" is unknown or no longer available. Use only names from the '
            "latest available skills catalog."
        )
        with pytest.raises(MCPError) as prompt:
            await client.get_prompt(name)
        assert str(prompt.value) == (
            f"Unknown prompt '{cut}': no skill the user can invoke has this name."
        )
        shown = f"skill://{name}"[:80] + "..."
        with pytest.raises(MCPError) as read:
            await client.read_resource(f"skill://{name}/SKILL.md")
        assert str(read.value) == f"Resource not found: {shown}: no skill named '{cut}' is served"
        with pytest.raises(MCPError) as got:
            await skills_get(client, f"skill://{name}/SKILL.md")
        assert str(got.value) == f"Unknown skill URI: {shown}: no skill named '{cut}' is served"
        with pytest.raises(MCPError) as tool_name:
            await client.call_tool(name, {})
        assert str(tool_name.value) == f"Unknown tool: '{cut}'"
