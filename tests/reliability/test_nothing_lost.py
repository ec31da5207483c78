"""Nothing lost: skilldeck never writes a workspace on its own, and its index cache can
be deleted or corrupted at any time without changing a verdict.

The workspace is snapshotted (every entry's kind, mtime and content digest) before and
after full CLI runs and a language-server session in which every request a user makes
is sent but no edit is applied. The cache tests run ``skilldeck check`` end to end with
``$SKILLDECK_CACHE_DIR`` and compare against ``--no-cache``.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import os
import shutil
import threading
import time
from pathlib import Path

import pytest
from lsp_harness import Deck, push_capabilities, skill_text, uri
from lsprotocol import types
from pygls.exceptions import JsonRpcMethodNotFound
from reliability_harness import check_json, run_cli, snapshot

BAD = "---\nname: Bad_Name\ndescription: d\n---\nbody\n"
OLD = time.time() - 3600  # older than the cache's racy window, so analyses are stored


def build(deck: Deck) -> None:
    """Good, bad, shadowed and flat skills in three roots, all an hour old."""
    deck.write(deck.project_dsh, "alpha")
    deck.write(deck.project_dsh, "broken", BAD)
    deck.write(deck.project_dsh, "flat", flat=True)
    deck.write(deck.project_agents, "alpha")
    deck.write(deck.project_agents, "beta", skill_text("beta", extra="whenToUse: 3\n"))
    (deck.project_dsh / "alpha" / "notes.md").write_text("see [x](../../../etc/passwd)\n")
    deck.write(deck.user_dsh, "gamma")
    for directory, _, files in os.walk(deck.base):
        for name in files:
            os.utime(os.path.join(directory, name), (OLD, OLD))


def test_cli_commands_never_write_inside_the_workspace(deck: Deck):
    build(deck)
    before = snapshot(deck.project)
    home_before = snapshot(deck.base / "home")
    commands = [
        ("check",),
        ("check", "--format", "sarif"),
        ("check", "--include-user-roots"),
        ("list",),
        ("list", "--json"),
        ("catalog",),
        ("catalog", "--json"),
        ("load", "alpha"),
        ("load", "flat"),
        ("roots",),
    ]
    for command in commands:
        done = run_cli(deck, *command)
        assert done.returncode in (0, 1), (command, done.stderr)
    assert snapshot(deck.project) == before
    assert snapshot(deck.base / "home") == home_before
    # The only place skilldeck wrote is its cache directory.
    assert sorted(p.name.startswith("root-") for p in (deck.base / "cache").iterdir())


async def test_a_server_session_never_writes_inside_the_workspace(deck: Deck, start_server):
    build(deck)
    before = snapshot(deck.project)
    capabilities = push_capabilities()
    assert capabilities.workspace is not None
    # A client that could apply a rename (file operations included): the server must still
    # only *return* edits, never apply them itself.
    capabilities.workspace.workspace_edit = types.WorkspaceEditClientCapabilities(
        document_changes=True,
        resource_operations=[types.ResourceOperationKind.Rename],
    )
    client = await start_server(capabilities=capabilities)
    applied: list[object] = []

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def refuse(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        applied.append(params)
        return types.ApplyWorkspaceEditResult(applied=False)

    path = deck.project_dsh / "broken" / "SKILL.md"
    document = types.TextDocumentIdentifier(uri(path))
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=uri(path), language_id="markdown", version=1, text=BAD)
        )
    )
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(version=2, uri=uri(path)),
            content_changes=[
                types.TextDocumentContentChangeWholeDocument(text=BAD + "\nunsaved edit\n")
            ],
        )
    )
    position = types.Position(1, 8)
    everywhere = types.Range(types.Position(0, 0), types.Position(5, 0))
    requests = [
        (types.TEXT_DOCUMENT_HOVER, types.HoverParams(document, position)),
        (types.TEXT_DOCUMENT_COMPLETION, types.CompletionParams(document, position)),
        (types.TEXT_DOCUMENT_DEFINITION, types.DefinitionParams(document, position)),
        (types.TEXT_DOCUMENT_DOCUMENT_LINK, types.DocumentLinkParams(document)),
        (
            types.TEXT_DOCUMENT_CODE_ACTION,
            types.CodeActionParams(document, everywhere, types.CodeActionContext(diagnostics=[])),
        ),
        (types.TEXT_DOCUMENT_PREPARE_RENAME, types.PrepareRenameParams(document, position)),
        (types.TEXT_DOCUMENT_RENAME, types.RenameParams(document, position, "fixed-name")),
        (
            types.TEXT_DOCUMENT_FORMATTING,
            types.DocumentFormattingParams(document, types.FormattingOptions(2, True)),
        ),
        (types.WORKSPACE_SYMBOL, types.WorkspaceSymbolParams(query="a")),
        ("skilldeck/skills", {"uri": uri(deck.project)}),
        ("skilldeck/catalog", {"uri": uri(path)}),
    ]
    for method, params in requests:
        # A capability not built yet answers MethodNotFound: still never a write.
        with contextlib.suppress(JsonRpcMethodNotFound):
            await client.protocol.send_request_async(method, params)
    client.text_document_did_save(types.DidSaveTextDocumentParams(document))
    client.text_document_did_close(types.DidCloseTextDocumentParams(document))
    await client.shutdown_session()
    assert applied == []
    assert snapshot(deck.project) == before


# --- the index cache -------------------------------------------------------------------


def fresh(deck: Deck) -> list[dict[str, object]]:
    return check_json(deck, "--include-user-roots", "--no-cache")


def cached(deck: Deck) -> list[dict[str, object]]:
    return check_json(deck, "--include-user-roots")


def cache_files(deck: Deck) -> list[Path]:
    return sorted((deck.base / "cache").glob("root-*.json"))


def corrupt_truncate(file: Path) -> None:
    file.write_bytes(file.read_bytes()[: file.stat().st_size // 2])


def corrupt_garbage(file: Path) -> None:
    file.write_bytes(b"\x00\xff{not json" * 100)


def corrupt_wrong_shape(file: Path) -> None:
    file.write_text('{"entries": [1, 2, {"x": null}], "key": 5}')


def corrupt_empty(file: Path) -> None:
    file.write_bytes(b"")


def corrupt_directory(file: Path) -> None:
    file.unlink()
    (file / "nested").mkdir(parents=True)


def corrupt_delete(file: Path) -> None:
    shutil.rmtree(file.parent)


CORRUPTIONS = (
    corrupt_truncate,
    corrupt_garbage,
    corrupt_wrong_shape,
    corrupt_empty,
    corrupt_directory,
    corrupt_delete,
)


def test_a_corrupt_or_missing_cache_never_changes_a_verdict(deck: Deck):
    build(deck)
    expected = fresh(deck)
    assert {f["code"] for f in expected} >= {"SD203"}
    for corrupt in CORRUPTIONS:
        assert cached(deck) == expected  # (re)writes the cache
        files = cache_files(deck)
        assert files, f"the warm run stored nothing (before {corrupt.__name__})"
        for file in files:
            if file.exists():
                corrupt(file)
        started = time.monotonic()
        assert cached(deck) == expected, corrupt.__name__
        # A hang bound, not a speed claim (a run takes seconds, more on a loaded machine):
        # a corrupt file read as a length or a loop would never end.
        assert time.monotonic() - started < 60
        if corrupt is corrupt_directory:
            for file in files:
                shutil.rmtree(file)


def test_the_cache_dir_being_a_file_is_a_miss_not_an_error(deck: Deck):
    build(deck)
    expected = fresh(deck)
    (deck.base / "cache").write_text("not a directory")
    assert cached(deck) == expected
    assert (deck.base / "cache").read_text() == "not a directory"


@pytest.mark.timeout(240)  # a hang bound: eight checks four at a time on a loaded machine
def test_concurrent_checks_and_a_deleting_janitor_agree_with_a_fresh_check(deck: Deck):
    build(deck)
    expected = fresh(deck)
    stop = threading.Event()

    def janitor() -> int:
        rounds = 0
        while not stop.is_set():
            shutil.rmtree(deck.base / "cache", ignore_errors=True)
            for file in cache_files(deck):
                corrupt_truncate(file) if rounds % 2 else corrupt_garbage(file)
            rounds += 1
            time.sleep(0.01)
        return rounds

    with concurrent.futures.ThreadPoolExecutor(max_workers=5) as pool:
        cleaner = pool.submit(janitor)
        runs = [pool.submit(cached, deck) for _ in range(8)]
        try:
            results = [run.result() for run in runs]
        finally:
            stop.set()  # a failed run must not leave the janitor running
        assert cleaner.result() > 0
    assert all(result == expected for result in results)
    # Writers raced one another; whatever they left must still be right.
    assert cached(deck) == expected
    assert not list((deck.base / "cache").glob(".tmp-*"))
