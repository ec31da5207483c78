"""The language server under odd edits, cancellation and load (pytest-lsp and raw stdio).

Odd edits: wrong versions, ranges past the end of the document, changes that arrive
out of order. Load: 10,000 incremental edits to one buffer while other skills are
created, rewritten and deleted on disk; once the churn stops, the server's diagnostics
must equal what ``skilldeck check`` says about the same files.
"""

from __future__ import annotations

import asyncio
import os
import random
import threading
import time
from pathlib import Path

import pytest
from lsp_harness import HANG_S, Deck, skill_text, uri, wait_for
from lsprotocol import types
from raw_lsp import RawServer, frame, processes_marked
from reliability_harness import check_json

BAD = "---\nname: Bad_Name\ndescription: d\n---\nbody\n"
OTHER_BAD = "---\nname: Other_Bad\ndescription: d\n---\nbody\n"
REQUEST_CANCELLED = -32800


def did_change(client, path: Path, version: int, changes) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri(path), version=version),
            content_changes=changes,
        )
    )


def whole(text: str) -> types.TextDocumentContentChangeWholeDocument:
    return types.TextDocumentContentChangeWholeDocument(text=text)


def edit(line: int, char: int, end_line: int, end_char: int, text: str):
    return types.TextDocumentContentChangePartial(
        range=types.Range(types.Position(line, char), types.Position(end_line, end_char)),
        text=text,
    )


async def published(client, path: Path, predicate, timeout: float = HANG_S):
    """The pushed diagnostics of ``path`` once ``predicate(list)`` holds."""
    target = uri(path)

    def check():
        if target in client.diagnostics and predicate(list(client.diagnostics[target])):
            return (list(client.diagnostics[target]),)
        return None

    return (await wait_for(check, timeout=timeout, what=f"diagnostics of {path.name}"))[0]


async def test_wrong_versions_and_out_of_range_edits_never_stop_the_server(
    deck: Deck, start_server
):
    path = deck.write(deck.project_dsh, "alpha")
    client = await start_server()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri(path), "markdown", 5, skill_text("alpha"))
        )
    )
    did_change(client, path, 5, [edit(500, 0, 900, 3, "x")])  # same version, past the end
    did_change(client, path, 1, [edit(0, 9999, 0, 10000, "y")])  # older version, past the line
    did_change(client, path, 7, [edit(3, 4, 1, 2, "inverted")])  # end before start
    did_change(client, path, 8, [edit(0, 0, 0, 0, "\ud800")])  # lone surrogate
    # The server is still serving and, given the whole text again, judges it exactly.
    did_change(client, path, 9, [whole(BAD)])
    [diagnostic] = await published(client, path, lambda d: len(d) == 1)
    assert diagnostic.code == "SD203"
    assert diagnostic.range == types.Range(types.Position(1, 6), types.Position(1, 14))
    did_change(client, path, 10, [whole(skill_text("alpha"))])
    assert await published(client, path, lambda d: d == []) == []


async def test_a_stale_out_of_order_change_is_ignored_and_logged(deck: Deck, start_server):
    path = deck.write(deck.project_dsh, "alpha")
    client = await start_server()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(types.TextDocumentItem(uri(path), "markdown", 1, BAD))
    )
    await published(client, path, lambda d: len(d) == 1)
    did_change(client, path, 3, [whole(skill_text("alpha"))])
    assert await published(client, path, lambda d: d == []) == []
    did_change(client, path, 2, [whole(OTHER_BAD)])  # late, older version: dropped
    # An incremental edit on top of version 3: "name: alpha" -> "name: Alpha_Bad". Had
    # the stale text been applied, the name would read "Alpha_Bad_Bad".
    did_change(client, path, 4, [edit(1, 6, 1, 11, "Alpha_Bad")])
    [diagnostic] = await published(client, path, lambda d: len(d) == 1)
    assert diagnostic.code == "SD203"
    assert "Alpha_Bad" in diagnostic.message and "Alpha_Bad_Bad" not in diagnostic.message
    assert diagnostic.range == types.Range(types.Position(1, 6), types.Position(1, 15))
    assert f"skilldeck: ignored stale didChange for {uri(path)}: version 2 after 3" in [
        m.message for m in client.log_messages
    ]


def test_cancel_request_gets_an_answer_and_the_server_keeps_serving(deck: Deck, raw_server):
    deck.write(deck.project_dsh, "alpha")
    server: RawServer = raw_server()
    server.initialize(deck.project)
    # Cancel a live request in the same write as the request itself.
    request = {"jsonrpc": "2.0", "id": "c1", "method": "skilldeck/skills", "params": {}}
    cancel = {"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": "c1"}}
    server.write(frame(request) + frame(cancel))
    answer = server.response("c1")
    assert "result" in answer or answer["error"]["code"] == REQUEST_CANCELLED, answer
    # Cancelling a request that never existed, or one already answered, is ignored.
    server.notify("$/cancelRequest", {"id": 424242})
    server.notify("$/cancelRequest", {"id": "c1"})
    response = server.request("skilldeck/noSuchMethod", {})
    assert response["error"]["code"] == -32601


#: Disk changes the churn makes at least, edits sent or not.
CHURNED = 100


def _churn(root: Path, stop: threading.Event, enough: threading.Event, seed: int) -> int:
    """Create, rewrite and delete skills under ``root`` until ``stop``, setting ``enough``
    after :data:`CHURNED` of them; returns the count."""
    rng = random.Random(seed)
    count = 0
    while not stop.is_set():
        name = f"churn-{rng.randrange(12)}"
        folder = root / name
        action = rng.random()
        try:
            if action < 0.5:
                folder.mkdir(parents=True, exist_ok=True)
                text = skill_text(name) if rng.random() < 0.6 else BAD
                (folder / "SKILL.md").write_text(text, encoding="utf-8")
            elif folder.exists():
                (folder / "SKILL.md").unlink(missing_ok=True)
                folder.rmdir()
        except OSError:
            pass
        count += 1
        if count >= CHURNED:
            enough.set()
        time.sleep(0.001)
    return count


def _as_check_items(client, project: Path) -> list[tuple[str, str, int, int, int, int, str]]:
    items = []
    for target, diagnostics in client.diagnostics.items():
        path = os.path.relpath(target.removeprefix("file://"), project)
        for d in diagnostics:
            r = d.range
            items.append(
                (
                    path,
                    str(d.code),
                    r.start.line,
                    r.start.character,
                    r.end.line,
                    r.end.character,
                    d.message,
                )
            )
    return sorted(items)


def _check_items(findings) -> list[tuple[str, str, int, int, int, int, str]]:
    return sorted(
        (
            f["path"],
            f["code"],
            f["range"]["start"]["line"],
            f["range"]["start"]["character"],
            f["range"]["end"]["line"],
            f["range"]["end"]["character"],
            f["message"],
        )
        for f in findings
    )


@pytest.mark.timeout(120)
async def test_ten_thousand_edits_with_disk_churn_end_equal_to_a_fresh_check(
    deck: Deck, start_server, mark
):
    root = deck.project_dsh
    for n in range(5):
        deck.write(root, f"steady-{n}")
    deck.write(root, "twin")
    deck.write(deck.project_agents, "twin")  # shadowed by the project-dsh one
    path = deck.write(root, "typed")
    client = await start_server()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri(path), "markdown", 0, skill_text("typed"))
        )
    )
    stop, enough = threading.Event(), threading.Event()
    churner = asyncio.get_running_loop().run_in_executor(None, _churn, root, stop, enough, 7)
    # Line 2 is "description: Does a thing."; type and erase one character 5,000 times.
    version = 0
    for _ in range(5000):
        version += 1
        did_change(client, path, version, [edit(2, 26, 2, 26, "!")])
        version += 1
        did_change(client, path, version, [edit(2, 26, 2, 27, "")])
        if version % 500 == 0:
            await asyncio.sleep(0)
    # The last edit breaks the name, on disk too, so the buffer equals the file.
    version += 1
    did_change(client, path, version, [whole(OTHER_BAD)])
    path.write_text(OTHER_BAD, encoding="utf-8")
    # The churn goes on while the edits are sent, and for CHURNED changes at least.
    await asyncio.get_running_loop().run_in_executor(None, enough.wait, HANG_S)
    stop.set()
    churned = await churner
    assert churned >= CHURNED
    expected = _check_items(check_json(deck, "--no-cache"))
    assert any(item[1] == "SD203" and "Other_Bad" in item[6] for item in expected)
    try:
        await wait_for(
            lambda: _as_check_items(client, deck.project) == expected,
            what="server diagnostics equal to skilldeck check",
        )
    except AssertionError:
        assert _as_check_items(client, deck.project) == expected
    [pid] = processes_marked(mark)
    with open(f"/proc/{pid}/status") as status:
        peak_kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    assert peak_kb < 400 * 1024, f"server peak RSS {peak_kb / 1024:.0f} MiB"
