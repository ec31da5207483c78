"""Hostile trees end to end, through the CLI and the language server.

The engine's own tests (``tests/engine/test_hostile_trees.py``) cover scanning; these
check what a user sees: a root that is a symlink to ``/``, a bundle linking outside its
root, 100,000 entries in one root, and folder names with newlines and non-UTF-8 bytes
shown in CLI output and as LSP URIs.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from lsp_harness import Deck, pull_capabilities, skill_text, uri, wait_for
from lsprotocol import types
from raw_lsp import processes_marked
from reliability_harness import run_cli, server_env

BAD = "---\nname: Bad_Name\ndescription: d\n---\nbody\n"


def check_bytes(deck: Deck, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "skilldeck", "check", "--no-cache", *args],
        cwd=deck.project,
        env=server_env(deck),
        capture_output=True,
        timeout=60,
        check=False,
    )


@pytest.mark.slow  # ~0.7 s: roots are watched one level deep, never walked
async def test_a_root_symlinked_to_slash_is_scanned_one_level_and_served(
    deck: Deck, start_server, mark
):
    deck.project_dsh.parent.mkdir(parents=True)
    deck.project_dsh.symlink_to("/")
    deck.write(deck.project_agents, "alpha")
    started = time.monotonic()
    done = run_cli(deck, "list", "--json")
    assert done.returncode == 0, done.stderr
    listing = json.loads(done.stdout)
    assert [s["name"] for s in listing["skills"]] == ["alpha"]
    assert listing["complete"] is True
    assert time.monotonic() - started < 15
    started = time.monotonic()
    client = await start_server()
    result = await client.protocol.send_request_async(
        "skilldeck/catalog", {"uri": uri(deck.project)}
    )
    assert time.monotonic() - started < 5  # was ~10-25 s with a recursive watch of /
    assert "`alpha`" in json.dumps(result)
    [pid] = processes_marked(mark)
    with open(f"/proc/{pid}/status") as status:
        peak_kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    assert peak_kb < 300 * 1024


def test_a_bundle_linking_outside_its_root_never_reveals_the_target(deck: Deck, tmp_path):
    secret = tmp_path / "outside" / "secret.txt"
    secret.parent.mkdir()
    secret.write_text("TOP-SECRET-CONTENT\n")
    folder = deck.write(
        deck.project_dsh, "alpha", skill_text("alpha", extra="", description="Reads [a](leak.txt).")
    ).parent
    (folder / "leak.txt").symlink_to(secret)
    (folder / "dir-leak").symlink_to(secret.parent)
    for command in (("load", "alpha"), ("catalog",), ("list", "--json"), ("check",)):
        done = run_cli(deck, *command)
        assert done.returncode == 0, (command, done.stderr)
        assert "TOP-SECRET" not in done.stdout + done.stderr
        assert str(secret.parent) not in done.stdout + done.stderr


def _odd_folders(root: Path, *, non_utf8: bool = True) -> list[bytes]:
    """Bundles whose folder names hold a newline, a space and (optionally) byte 0xE9."""
    names = [b"new\nline", b"sp ace"] + ([b"caf\xe9"] if non_utf8 else [])
    for raw in names:
        folder = os.fsencode(root) + b"/" + raw
        os.makedirs(folder)
        with open(folder + b"/SKILL.md", "w") as handle:
            handle.write(BAD)
    return names


def test_newline_folder_names_in_json_output_round_trip(deck: Deck):
    _odd_folders(deck.project_dsh, non_utf8=False)
    done = check_bytes(deck, "--format", "json")
    assert done.returncode == 1, done.stderr
    paths = sorted(f["path"] for f in json.loads(done.stdout))  # bytes: any valid encoding
    assert ".dsh/skills/new\nline/SKILL.md" in paths
    assert paths == [".dsh/skills/new\nline/SKILL.md", ".dsh/skills/sp ace/SKILL.md"]


def test_json_output_is_utf8_even_for_non_utf8_folder_names(deck: Deck):
    _odd_folders(deck.project_dsh)
    done = check_bytes(deck, "--format", "json")
    paths = sorted(f["path"] for f in json.loads(done.stdout.decode("utf-8")))
    # The undecodable byte travels as a JSON \\udcNN escape: the same str Python scanned.
    assert ".dsh/skills/caf\udce9/SKILL.md" in paths


def test_text_output_keeps_one_line_per_finding_for_newline_folder_names(deck: Deck):
    _odd_folders(deck.project_dsh)
    done = check_bytes(deck, "--format", "text")
    lines = done.stdout.decode("utf-8", "replace").splitlines()
    assert sum(1 for line in lines if "SD203" in line) == 3
    assert len(lines) == 4  # three findings and the summary
    assert any(line.startswith(".dsh/skills/new\\nline/SKILL.md:2:7: SD203") for line in lines)
    assert any(line.startswith(".dsh/skills/caf\\xe9/SKILL.md:2:7: SD203") for line in lines)


def test_github_output_escapes_newlines_in_paths(deck: Deck):
    _odd_folders(deck.project_dsh)
    done = check_bytes(deck, "--format", "github")
    lines = done.stdout.decode("utf-8", "replace").splitlines()
    assert len([line for line in lines if line.startswith("::error ")]) == 3
    assert any("file=.dsh/skills/new%0Aline/SKILL.md," in line for line in lines)


async def _published_uris(deck: Deck, client, count: int) -> set[str]:
    def published() -> set[str]:
        return {u for u, d in client.diagnostics.items() if d}

    await wait_for(lambda: len(published()) >= count, what=f"diagnostics of {count} files")
    for target in published():
        [diagnostic] = client.diagnostics[target]
        assert diagnostic.code == "SD203"
        assert diagnostic.range == types.Range(types.Position(1, 6), types.Position(1, 14))
    return published()


async def test_newline_and_space_folder_names_become_percent_encoded_uris(deck: Deck, start_server):
    _odd_folders(deck.project_dsh, non_utf8=False)
    client = await start_server()
    base = uri(deck.project_dsh)
    assert await _published_uris(deck, client, 2) == {
        f"{base}/new%0Aline/SKILL.md",
        f"{base}/sp%20ace/SKILL.md",
    }


async def test_non_utf8_folder_names_become_percent_encoded_uris(deck: Deck, start_server):
    _odd_folders(deck.project_dsh)
    client = await start_server()
    base = uri(deck.project_dsh)
    assert await _published_uris(deck, client, 3) == {
        f"{base}/new%0Aline/SKILL.md",
        f"{base}/caf%E9/SKILL.md",
        f"{base}/sp%20ace/SKILL.md",
    }


@pytest.mark.slow
@pytest.mark.timeout(300)
async def test_a_hundred_thousand_entries_in_one_root_under_the_server(
    deck: Deck, start_server, mark
):
    root = deck.project_dsh
    root.mkdir(parents=True)
    for n in range(100_000):
        (root / f"note-{n}.txt").touch()
    deck.write(root, "alpha")
    deck.write(root, "broken", BAD)
    started = time.monotonic()
    client = await start_server()
    target = uri(root / "broken" / "SKILL.md")
    while target not in client.diagnostics and time.monotonic() - started < 60:
        await asyncio.sleep(0.1)
    elapsed = time.monotonic() - started
    assert [d.code for d in client.diagnostics[target]] == ["SD203"]
    assert elapsed < 60, f"first diagnostics after {elapsed:.1f} s"
    [pid] = processes_marked(mark)
    with open(f"/proc/{pid}/status") as status:
        peak_kb = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    assert peak_kb < 500 * 1024, f"server peak RSS {peak_kb / 1024:.0f} MiB"


ASTRAL_BAD = "---\nname: \U0001f600Bad\ndescription: d\n---\nbody\n"


def _open_odd(client, target: str, text: str) -> None:
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            types.TextDocumentItem(uri=target, language_id="markdown", version=1, text=text)
        )
    )


@pytest.mark.parametrize("folder", ["sp%20ace", "caf%E9"])
async def test_an_open_document_in_an_odd_folder_is_judged_by_its_buffer(
    deck: Deck, start_server, folder: str
):
    _odd_folders(deck.project_dsh)
    client = await start_server()
    target = f"{uri(deck.project_dsh)}/{folder}/SKILL.md"
    await _published_uris(deck, client, 3)

    def published(version: int, end: int) -> bool:
        params = [p for p in client.published if p.uri == target]
        if not params or params[-1].version != version:
            return False
        return [(d.code, d.range.end.character) for d in params[-1].diagnostics] == [("SD203", end)]

    client.published = []
    original = client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def on_publish(params: types.PublishDiagnosticsParams) -> None:
        client.published.append(params)
        original(client, params)

    client.protocol.fm.features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = on_publish
    _open_odd(client, target, ASTRAL_BAD)
    # The buffer's line (not the file's) converts columns: the emoji is two UTF-16 units
    # (code points 6..10 of "😀Bad" are UTF-16 columns 6..11).
    await wait_for(lambda: published(1, 11), what="the buffer's diagnostics (version 1)")

    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=target, version=2),
            content_changes=[
                types.TextDocumentContentChangeWholeDocument(
                    ASTRAL_BAD.replace("Bad", "\U0001f600Bad")
                )
            ],
        )
    )
    await wait_for(lambda: published(2, 13), what="the buffer's diagnostics (version 2)")


async def test_pulled_workspace_diagnostics_carry_the_version_of_an_odd_open_document(
    deck: Deck, start_server
):
    _odd_folders(deck.project_dsh)
    client = await start_server(capabilities=pull_capabilities())
    targets = [f"{uri(deck.project_dsh)}/{name}/SKILL.md" for name in ("sp%20ace", "caf%E9")]
    for target in targets:
        _open_odd(client, target, ASTRAL_BAD)
    # The server reads messages in order: the pull comes after both buffers are open.
    report = await client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=[])
    )
    items = {item.uri: item for item in report.items}
    for target in targets:
        assert items[target].version == 1
        [diagnostic] = items[target].items
        assert diagnostic.range == types.Range(types.Position(1, 6), types.Position(1, 11))
    untouched = items[f"{uri(deck.project_dsh)}/new%0Aline/SKILL.md"]
    assert untouched.version is None
    assert [d.range.end.character for d in untouched.items] == [14]
