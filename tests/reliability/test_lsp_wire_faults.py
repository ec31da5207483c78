"""The language server under malformed JSON-RPC, spoken byte by byte over stdio.

Each test breaks the wire in one way, then proves the server still serves: it answers
the next request, and a document opened afterwards gets its real diagnostics. The
last tests take the client away without ``shutdown`` and check that the process ends
promptly and leaves nothing running.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsp_harness import HANG_S, Deck, skill_text, uri
from raw_lsp import RawServer, frame, processes_marked

METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
BAD_NAME = "---\nname: Bad_Name\ndescription: d\n---\nbody\n"


def ping(server: RawServer) -> dict[str, object]:
    """An unknown request: any answer proves the reader and dispatcher are alive (the
    wait for it is bounded by ``HANG_S``: no speed claim, a loaded machine is slow)."""
    response = server.request("skilldeck/noSuchMethod", {})
    assert response["error"] == {  # type: ignore[comparison-overlap]
        "code": METHOD_NOT_FOUND,
        "message": "Method Not Found: skilldeck/noSuchMethod",
    }
    return response


def open_and_expect_bad_name(server: RawServer, path: Path) -> None:
    """Open a skill with a bad name; the pushed diagnostics carry SD203 at its range."""
    server.notify(
        "textDocument/didOpen",
        {
            "textDocument": {
                "uri": uri(path),
                "languageId": "markdown",
                "version": 1,
                "text": BAD_NAME,
            }
        },
    )
    published = server.wait(
        lambda m: (
            m.get("method") == "textDocument/publishDiagnostics"
            and m["params"]["uri"] == uri(path)
            and m["params"]["diagnostics"]
        ),
        what="diagnostics after the faults",
    )
    [diagnostic] = published["params"]["diagnostics"]
    assert diagnostic["code"] == "SD203"
    assert diagnostic["range"] == {
        "start": {"line": 1, "character": 6},
        "end": {"line": 1, "character": 14},
    }


@pytest.fixture
def started(deck: Deck, raw_server) -> tuple[RawServer, Path]:
    deck.write(deck.project_dsh, "good")
    path = deck.write(deck.project_dsh, "bad", BAD_NAME)
    path.write_text(skill_text("bad"), encoding="utf-8")
    server = raw_server()
    assert server.initialize(deck.project)["result"]["serverInfo"]["name"] == "skilldeck"
    return server, path


GARBAGE = {
    "non-numeric-length": b"Content-Length: abc\r\n\r\n{}\r\n",
    "header-without-length": b"X-Nonsense\r\n\r\n",
    "truncated-json": frame(b'{"jsonrpc": "2.0", "id": 5, "method": '),
    "not-utf8": frame(b"\xff\xfe\x00{"),
    "json-array": frame(b"[1, 2, 3]"),
    "json-string": frame(b'"just a string"'),
    "empty-object": frame(b"{}"),
    "notification-wrong-types": frame(
        {"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": 7}}
    ),
    "response-to-nothing": frame({"jsonrpc": "2.0", "id": 9, "result": {"unexpected": True}}),
    "unknown-dollar-notification": frame(
        {"jsonrpc": "2.0", "method": "$/unknownNotification", "params": {}}
    ),
    "change-to-unopened-document": frame(
        {
            "jsonrpc": "2.0",
            "method": "textDocument/didChange",
            "params": {
                "textDocument": {"uri": "file:///nowhere/SKILL.md", "version": 2},
                "contentChanges": [{"text": "x"}],
            },
        }
    ),
}


def test_garbage_on_the_wire_is_skipped_and_the_server_keeps_serving(started):
    server, path = started
    for name, garbage in GARBAGE.items():
        server.write(garbage)
        try:
            ping(server)
        except AssertionError as error:
            raise AssertionError(f"no answer after {name}: {error}") from None
    open_and_expect_bad_name(server, path)
    assert server.process.poll() is None


def test_a_request_with_wrong_param_types_gets_invalid_params(started):
    server, path = started
    response = server.request("textDocument/hover", {"textDocument": 5, "position": "x"})
    assert response["error"]["code"] == INVALID_PARAMS
    assert response["error"]["message"].startswith("Invalid params for 'textDocument/hover'")
    weird_id = {"jsonrpc": "2.0", "id": "str-id", "method": "skilldeck/skills", "params": 3}
    server.send(weird_id)
    answer = server.response("str-id")
    assert "error" in answer or "result" in answer
    ping(server)
    open_and_expect_bad_name(server, path)


def test_unknown_methods_get_method_not_found(started):
    server, _ = started
    ping(server)
    response = server.request("workspace/willDoSomethingNew", {"x": [1]})
    assert response["error"]["code"] == METHOD_NOT_FOUND


def test_an_unknown_method_is_logged_as_one_quiet_line_without_a_traceback(started):
    server, path = started
    ping(server)
    open_and_expect_bad_name(server, path)  # everything the ping caused has arrived
    server.drain()
    logs = [m["params"] for m in server.seen if m.get("method") == "window/logMessage"]
    about_ping = [log for log in logs if "skilldeck/noSuchMethod" in log["message"]]
    assert about_ping == [
        {"type": 4, "message": "skilldeck: Method Not Found: skilldeck/noSuchMethod"}
    ]
    assert not [log for log in logs if log["type"] == 1 or "Traceback" in log["message"]]


def test_an_unknown_method_without_params_gets_method_not_found(started):
    server, _ = started
    response = server.request("skilldeck/noParams", None)
    assert response["error"]["code"] == METHOD_NOT_FOUND


def test_closing_stdin_without_shutdown_ends_the_server_and_leaves_nothing(started, mark):
    server, _ = started
    ping(server)
    assert processes_marked(mark) == [server.process.pid]
    server.close_stdin()
    server.process.wait(timeout=HANG_S)  # a hang bound: it ends on its own
    assert server.process.returncode == 0, server.stderr_text()
    assert processes_marked(mark) == []


def test_a_length_larger_than_the_stream_then_eof_ends_the_server(started, mark):
    server, _ = started
    server.write(b'Content-Length: 99999999999\r\n\r\n{"jsonrpc": ')
    server.close_stdin()
    server.process.wait(timeout=HANG_S)  # a hang bound: it ends on its own
    assert processes_marked(mark) == []


def test_exit_without_shutdown_ends_the_server_with_status_1(started, mark):
    server, _ = started
    server.notify("exit")
    server.process.wait(timeout=HANG_S)  # a hang bound: it ends on its own
    assert processes_marked(mark) == []
    assert server.process.returncode == 1  # LSP: exit before shutdown is status 1


def test_a_request_before_initialized_is_refused_not_left_waiting(deck: Deck, raw_server):
    deck.write(deck.project_dsh, "good")
    server = raw_server()
    root = deck.project
    server.request(
        "initialize",
        {
            "processId": None,
            "rootUri": root.as_uri(),
            "capabilities": {},
            "workspaceFolders": [{"uri": root.as_uri(), "name": root.name}],
        },
    )
    # No `initialized`: indexing never starts, so the request must not wait forever: it
    # is refused (an answer at all: a request left waiting would never get one).
    answer = server.request("skilldeck/catalog", {"uri": root.as_uri()})
    assert answer["error"]["code"] == -32002  # ServerNotInitialized
    assert "'initialized'" in answer["error"]["message"]
    # Once `initialized` arrives, the same request is answered.
    server.notify("initialized", {})
    assert server.request("skilldeck/catalog", {"uri": root.as_uri()})["result"]["skillCount"] == 1
