"""``skilldeck mcp --http``: streamable HTTP with the SDK client; loopback by default,
a bearer token required beyond it (401 without), CORS closed."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from contextlib import contextmanager

import anyio
import httpx2
import pytest
from mcp.client.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp_client_helpers import HANG_S, skill_text, skills_list, write

try:
    import resource
except ImportError:  # not POSIX
    resource = None

TOKEN = "s3cret-token-for-tests"
SKILLDECK_MCP = (sys.executable, "-m", "skilldeck", "mcp")


@contextmanager
def _http_server(project, environment, *extra, open_files=None):
    """``(url, process)`` of ``skilldeck mcp --http 127.0.0.1:0`` serving ``project``
    (allowed ``open_files`` open files, when given)."""
    env = {key: value for key, value in os.environ.items() if not key.startswith("DSH_")}
    env.update(environment)
    env["SKILLDECK_TEST_TOKEN"] = TOKEN
    server = subprocess.Popen(
        [
            *(SKILLDECK_MCP if open_files is None else _with_open_files(open_files)),
            *("--cwd", str(project), "--http", "127.0.0.1:0", *extra),
        ],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = server.stderr.readline()  # printed once the socket listens and the deck is read
        assert line.startswith("skilldeck mcp: serving http://127.0.0.1:"), line
        yield line.split()[-1], server
    finally:
        if server.poll() is None:
            server.terminate()
        try:
            server.wait(timeout=30)
        finally:
            if server.poll() is None:
                server.kill()
                server.wait()
            server.stderr.close()


def _post(url, headers, body=b'{"jsonrpc":"2.0","id":1,"method":"ping"}'):
    request = urllib.request.Request(url, data=body, headers=headers, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as answer:
            return answer.status, dict(answer.headers)
    except urllib.error.HTTPError as error:
        headers = dict(error.headers)
        headers["body"] = error.read()
        return error.code, headers


async def test_http_on_loopback_serves_both_eras_with_cors_closed(project, environment, cli):
    (load,) = cli(("load", "code-review", "--cwd", str(project)))
    with _http_server(project, environment) as (url, _):
        async with Client(url, mode="legacy") as client:
            assert client.protocol_version == "2025-11-25"
            result = await client.call_tool("skill", {"name": "code-review"})
            assert result.content[0].text + "\n" == load.stdout
        async with Client(url, mode="auto") as client:
            assert client.protocol_version == "2026-07-28"
            listed = await skills_list(client)
            assert listed["skills"][0]["uri"] == "skill://code-review/SKILL.md"

        json_headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
        }
        status, answer = _post(url, json_headers, b"{not json")
        assert status == 400
        assert json.loads(answer["body"])["error"]["code"] == -32700  # the SDK answers it
        status, headers = _post(url, {**json_headers, "Origin": "https://evil.example"})
        assert status == 403
        assert not any(key.lower().startswith("access-control-") for key in headers)
        request = urllib.request.Request(url, method="OPTIONS", headers={"Origin": "https://a.b"})
        with pytest.raises(urllib.error.HTTPError) as preflight:
            urllib.request.urlopen(request, timeout=10)
        assert preflight.value.code == 403
        assert preflight.value.headers.get("Access-Control-Allow-Origin") is None


async def test_http_with_a_token_refuses_requests_without_it(project, environment):
    with _http_server(project, environment, "--token-env", "SKILLDECK_TEST_TOKEN") as (url, _):
        json_headers = {"Content-Type": "application/json", "Accept": "application/json"}
        for headers in (
            json_headers,
            {**json_headers, "Authorization": "Bearer wrong"},
            {**json_headers, "Authorization": TOKEN},
            {**json_headers, "Authorization": f"Basic {TOKEN}"},
        ):
            status, answer_headers = _post(url, headers)
            assert status == 401
            assert answer_headers.get("www-authenticate") == 'Bearer realm="skilldeck"'
        # The scheme is case-insensitive (RFC 7235): the token is what is checked.
        status, _ = _post(url, {**json_headers, "Authorization": f"bearer {TOKEN}"})
        assert status not in (401, 403)

        authorized = httpx2.AsyncClient(headers={"Authorization": f"Bearer {TOKEN}"})
        async with (
            authorized,
            Client(streamable_http_client(url, http_client=authorized), mode="legacy") as client,
        ):
            tools = (await client.list_tools()).tools
            assert [tool.name for tool in tools] == ["skill"]


def test_a_public_address_needs_a_token_and_bad_flags_are_refused(cli, project, environment):
    cwd = ("--cwd", str(project))
    taken = socket.create_server(("127.0.0.1", 0))
    port = taken.getsockname()[1]
    with taken:
        (in_use,) = cli(("mcp", *cwd, "--http", f"127.0.0.1:{port}"))
    assert in_use.returncode == 2
    assert f"skilldeck: --http 127.0.0.1:{port}: cannot listen there: Address already in use" in (
        in_use.stderr
    )
    results = cli(
        ("mcp", *cwd, "--http", "0.0.0.0:8765"),
        ("mcp", *cwd, "--http", "0.0.0.0:8765", "--token-env", "SKILLDECK_UNSET_TOKEN"),
        ("mcp", *cwd, "--http", "localhost"),
        ("mcp", *cwd, "--http", "127.0.0.1:99999"),
        ("mcp", *cwd, "--token-env", "SKILLDECK_TEST_TOKEN"),
    )
    expected = [
        "--http 0.0.0.0: serving beyond this machine requires a bearer token",
        "--token-env SKILLDECK_UNSET_TOKEN: the environment variable is unset or empty",
        "--http: expected HOST:PORT, got 'localhost'",
        "--http: expected HOST:PORT, got '127.0.0.1:99999'",
        "--token-env applies to --http only",
    ]
    for result, message in zip(results, expected, strict=True):
        assert result.returncode == 2, result.stderr
        assert result.stdout == ""
        assert message in result.stderr


async def test_a_server_nobody_has_asked_yet_still_follows_its_deck(project, environment):
    """With no request the watches go live a second after the first read (they wait for
    the first answer otherwise): a client that comes later gets the deck as it is now.
    Written at once: before or after the watches are live (what changed since the listing
    is reported once they are), the change is seen."""
    with _http_server(project, environment) as (url, _):
        write(
            project / ".dsh" / "skills" / "code-review" / "SKILL.md",
            skill_text("code-review", "Review a change, tests first."),
        )
        # A client that comes later sees the new description once the watcher's debounce
        # and the re-read are done: ask until it does (the old deck would be served forever).
        seen = ""
        with anyio.move_on_after(HANG_S):  # a hang bound: it ends once the change is served
            while "- `code-review`: Review a change, tests first." not in seen:
                async with Client(url, mode="legacy") as client:
                    seen = client.instructions or ""
                if "Review a change, tests first." not in seen:
                    await anyio.sleep(0.2)
        assert "- `code-review`: Review a change, tests first." in seen


def _with_open_files(count):
    """``python -m skilldeck mcp``, run with at most ``count`` open files."""
    limit = (
        "import os, resource, sys; "
        f"resource.setrlimit(resource.RLIMIT_NOFILE, ({count}, {count})); "
        "os.execv(sys.executable, [sys.executable, *sys.argv[1:]])"
    )
    return (sys.executable, "-c", limit, *SKILLDECK_MCP[1:])


def _answer_then_close(connection):
    """What the server sends on ``connection`` until it closes it (bounded wait); a
    reset (a connection closed before the server read what it was sent) loses it."""
    connection.settimeout(30)
    received = b""
    try:
        while chunk := connection.recv(4096):
            received += chunk
    except ConnectionResetError:
        return b""
    return received


@pytest.mark.skipif(resource is None, reason="needs POSIX resource limits")
async def test_half_sent_requests_neither_lock_out_a_client_nor_flood_the_log(project, environment):
    """300 connections that send half a request line (no token, as anyone could) to a
    server allowed 256 open files: an authorized client is still served at once, each
    half-sent request is closed with 408 once its deadline passes, and the log stays
    quiet (it took megabytes of accept tracebacks, and the client timed out)."""
    with _http_server(
        project,
        environment,
        "--token-env",
        "SKILLDECK_TEST_TOKEN",
        open_files=256,
    ) as (url, server):
        port = int(url.rsplit(":", 1)[1].split("/")[0])
        half_sent = []
        try:
            for _ in range(300):
                connection = socket.create_connection(("127.0.0.1", port), timeout=30)
                half_sent.append(connection)
                connection.sendall(b"POST /mc")
            authorized = httpx2.AsyncClient(
                headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10
            )
            with anyio.fail_after(30):
                async with (
                    authorized,
                    Client(
                        streamable_http_client(url, http_client=authorized), mode="legacy"
                    ) as client,
                ):
                    tools = (await client.list_tools()).tools
                    assert [tool.name for tool in tools] == ["skill"]
            answers = await anyio.to_thread.run_sync(
                lambda: [_answer_then_close(connection) for connection in half_sent]
            )
        finally:
            for connection in half_sent:
                connection.close()
        # every one was closed; those whose bytes the server had read got a 408 first
        answered = [answer for answer in answers if answer]
        assert all(answer.startswith(b"HTTP/1.1 408 Request Timeout\r\n") for answer in answered)
        reasons = {answer.split(b"\r\n\r\n", 1)[1] for answer in answered}
        assert b"the request did not arrive within 10 s\n" in reasons
        assert reasons <= {
            b"closed to make room: the request did not arrive in time\n",
            b"the request did not arrive within 10 s\n",
        }
        server.terminate()
        stderr = server.stderr.read()
    assert "Traceback" not in stderr
    assert len(stderr) < 2000, stderr[:2000]


@pytest.mark.parametrize(
    ("mode", "signal_number", "status"),
    [
        ("auto", signal.SIGTERM, -signal.SIGTERM),
        ("auto", signal.SIGINT, 0),
        ("legacy", signal.SIGTERM, -signal.SIGTERM),
    ],
)
async def test_a_signal_ends_the_server_while_an_event_stream_is_open(
    project, environment, mode, signal_number, status
):
    """SIGTERM or SIGINT while a client holds an event stream open (``subscriptions/listen``
    in the 2026-07-28 era, the notification stream in the handshake era): the streams
    are ended and the server exits within its grace period (it used to run on)."""
    with _http_server(project, environment) as (url, server):
        async with Client(url, mode=mode) as client:
            if mode == "auto":
                async with client.listen(resources_list_changed=True):  # entered: acked
                    server.send_signal(signal_number)
                    returncode = await anyio.to_thread.run_sync(lambda: server.wait(HANG_S))
            else:
                await client.list_tools()
                server.send_signal(signal_number)
                returncode = await anyio.to_thread.run_sync(lambda: server.wait(HANG_S))
        stderr = server.stderr.read()
    assert returncode == status, stderr
    assert "Traceback" not in stderr


def test_http_sessions_are_bounded(project, environment):
    # One client may open many sessions; past the cap (100) a new one is refused with 503
    # and the sessions already open keep working (the SDK's default, 10,000, let one
    # local client hold ~470 MB and lock every other client out for 30 minutes).
    initialize = json.dumps(
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {
                "protocolVersion": "2025-06-18",
                "capabilities": {},
                "clientInfo": {"name": "many", "version": "1"},
            },
        }
    ).encode()
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    with _http_server(project, environment) as (url, _):
        sessions = []
        for _number in range(100):
            status, answer = _post(url, headers, initialize)
            assert status == 200, answer
            sessions.append(answer["mcp-session-id"])
        status, answer = _post(url, headers, initialize)
        assert status == 503, answer
        ping = b'{"jsonrpc":"2.0","id":2,"method":"ping"}'
        status, _answer = _post(
            url,
            {**headers, "Mcp-Session-Id": sessions[0], "MCP-Protocol-Version": "2025-06-18"},
            ping,
        )
        assert status == 200
