"""The output stays quiet on routine events and a real handler failure is announced once.

Issue #16.9: while typing, VS Code cancels requests already answered; pygls logged each
``$/cancelRequest`` as a warning on stderr (red lines in the output) while a handler's
traceback went unnoticed among them. Routine records now go to DEBUG; a handler that
raises logs its traceback and sends ``skilldeck/serverError`` once per kind of failure.

The failing handler is a test method added to the real server (``build_server()``) by
the launcher below: the server's own error path (pygls -> ``report_server_error``) is
what runs.
"""

from __future__ import annotations

import json
import sys
from collections.abc import AsyncIterator
from typing import Any

import pytest
from editing_fixtures import doc_id, editing_capabilities, open_doc, pos
from lsp_harness import Deck, plain, raw_request, stop_client, uri, wait_for
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

LAUNCHER = """
from skilldeck.lsp.server import build_server

server = build_server()

@server.feature("test/fail")
def fail(params):
    return 1 // 0

@server.feature("test/failElsewhere")
async def fail_elsewhere(params):
    return {}["missing"]

server.start_io()
"""


@pytest.fixture
async def client(deck: Deck) -> AsyncIterator[LanguageClient]:
    config = ClientServerConfig(
        server_command=[sys.executable, "-c", LAUNCHER], server_env=deck.env()
    )
    started = await config.start()
    assert isinstance(started, LanguageClient)
    errors: list[Any] = []
    started.feature("skilldeck/serverError")(lambda params: errors.append(plain(params)))
    setattr(started, "server_errors", errors)  # noqa: B010
    await started.initialize_session(
        types.InitializeParams(
            capabilities=editing_capabilities(),
            workspace_folders=[types.WorkspaceFolder(uri=uri(deck.project), name="project")],
        )
    )
    yield started
    await stop_client(started)


def raw_notify(client: LanguageClient, method: str, params: Any) -> None:
    """Send a notification whose params bypass the client's type checks."""
    raw_write(client, {"jsonrpc": "2.0", "method": method, "params": params})


def raw_write(client: LanguageClient, message: dict[str, Any]) -> None:
    """Send one framed JSON-RPC message as is."""
    body = json.dumps(message).encode()
    writer = client.protocol.writer
    assert writer is not None
    writer.write(b"Content-Length: %d\r\n\r\n%b" % (len(body), body))


def announced(client: LanguageClient) -> list[Any]:
    errors: list[Any] = getattr(client, "server_errors")  # noqa: B009
    return errors


async def test_a_handler_failure_is_announced_once_per_kind(
    deck: Deck, client: LanguageClient
) -> None:
    path = deck.write(deck.project_dsh, "review")
    open_doc(client, path)

    for attempt in range(3):
        with pytest.raises(Exception, match="ZeroDivisionError"):
            await raw_request(client, "test/fail", {}, msg_id=f"fail-{attempt}")
    with pytest.raises(Exception, match="KeyError"):
        await raw_request(client, "test/failElsewhere", {}, msg_id="elsewhere")

    await wait_for(lambda: len(announced(client)) == 2, what="two serverError notices")
    # Each notice follows its error response: after a round trip, none is on its way.
    await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(path), position=pos(1, 8))
    )
    first, second = announced(client)
    assert len(announced(client)) == 2
    assert first["message"] == (
        "skilldeck: internal error handling a request: ZeroDivisionError: integer division "
        "or modulo by zero. The server keeps running; the Skilldeck output has the traceback "
        "(please report it)."
    )
    assert first["kind"].startswith("ZeroDivisionError at File ")
    assert second["message"].startswith("skilldeck: internal error handling a request: KeyError")
    tracebacks = [
        m.message
        for m in client.log_messages
        if m.type == types.MessageType.Error and "ZeroDivisionError" in m.message
    ]
    assert len(tracebacks) == 3
    assert "Traceback (most recent call last):" in tracebacks[0]
    assert "line 8, in fail\nZeroDivisionError" in tracebacks[0]

    # The server keeps serving.
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(path), position=pos(1, 8))
    )
    assert hover is not None


async def test_cancelling_an_answered_request_is_not_logged_as_a_problem(
    deck: Deck, client: LanguageClient, capfd: pytest.CaptureFixture[str]
) -> None:
    path = deck.write(deck.project_dsh, "review")
    open_doc(client, path)
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(path), position=pos(1, 8))
    )
    assert hover is not None
    for msg_id in (1, 2, "gone"):
        client.protocol.notify(types.CANCEL_REQUEST, types.CancelParams(id=msg_id))
    # A deliberate error (an invalid new name) is answered, not reported as a failure.
    with pytest.raises(Exception, match="not a valid skill name"):
        await client.text_document_rename_async(
            types.RenameParams(text_document=doc_id(path), position=pos(1, 8), new_name="Bad Name")
        )
    # The server reads messages in order: once this is answered, all it wrote about the
    # cancellations and the refused rename is out.
    await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(path), position=pos(1, 8))
    )

    stderr = capfd.readouterr().err
    assert "Cancel notification for unknown message id" not in stderr
    assert "Traceback" not in stderr
    assert not [m for m in client.log_messages if m.type == types.MessageType.Error]
    assert announced(client) == []


async def test_a_refused_request_is_one_log_line_and_no_traceback(
    deck: Deck, client: LanguageClient, capfd: pytest.CaptureFixture[str]
) -> None:
    # Issue #32: each refused request wrote a 3-5 KB traceback to stderr; a client that
    # does not drain stderr stalled the server after ~60 KB.
    path = deck.write(deck.project_dsh, "review")
    open_doc(client, path)
    await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(path), position=pos(1, 8))
    )
    capfd.readouterr()  # what starting wrote

    with pytest.raises(Exception, match="Invalid params") as invalid:
        await raw_request(
            client, "textDocument/hover", {"textDocument": {"uri": uri(path)}}, msg_id="bad"
        )
    with pytest.raises(Exception, match="not a valid skill name"):
        await client.text_document_rename_async(
            types.RenameParams(text_document=doc_id(path), position=pos(1, 8), new_name="Bad Name")
        )
    with pytest.raises(Exception, match="Method Not Found"):
        await raw_request(client, "skilldeck/noSuchMethod", {}, msg_id="unknown")
    raw_notify(client, types.TEXT_DOCUMENT_DID_OPEN, {"textDocument": 7})
    raw_write(client, {"jsonrpc": "2.0", "id": "neither-result-nor-error"})
    # The server reads messages in order: once this is answered, all it wrote about the
    # messages before is out.
    await client.text_document_hover_async(
        types.HoverParams(text_document=doc_id(path), position=pos(1, 8))
    )

    assert "required field missing @ $.params.position" in str(invalid.value)
    stderr = capfd.readouterr().err
    assert "Traceback" not in stderr
    assert len(stderr.splitlines()) <= 5  # at most one short line each
    assert all(len(line) < 200 for line in stderr.splitlines())
    logged = [m.message for m in client.log_messages if "skilldeck: refused" in m.message]
    assert logged == [
        "skilldeck: refused request 'bad' (textDocument/hover): invalid params: required "
        "field missing @ $.params.position",
        "skilldeck: refused: 'Bad Name' is not a valid skill name: uppercase letter 'B' at "
        "position 1. Use lowercase letters, digits and single hyphens, e.g. 'pdf-forms'.",
    ]
    assert not [m for m in client.log_messages if m.type == types.MessageType.Error]
    assert announced(client) == []
