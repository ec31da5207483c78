"""After an F2 rename applied the way VS Code applies it, the index equals a fresh one.

Issue #16 item 1: the server lost the renamed skill (``KeyError`` in
``FolderIndex._position_for``) from ``skilldeck/skills``, ``skilldeck/catalog`` and the
diagnostics until restart.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from client_text import Editor
from editing_fixtures import doc_id, pos, start_editor
from lsp_harness import (
    HANG_S,
    Deck,
    StartServer,
    overlap_builds,
    request,
    skill_text,
    uri,
    wait_for,
)
from lsprotocol import types
from pytest_lsp import LanguageClient


async def _view(client: LanguageClient, deck: Deck) -> dict[str, Any]:
    skills = await request(client, "skilldeck/skills", {"uri": uri(deck.project)})
    catalog = await request(client, "skilldeck/catalog", {"uri": uri(deck.project)})
    diagnostics = {
        key: sorted((str(d.code), d.range.start.line, d.message) for d in found)
        for key, found in client.diagnostics.items()
        if found
    }
    return {"skills": skills, "catalog": catalog, "diagnostics": diagnostics}


async def _settled(client: LanguageClient, deck: Deck, want: dict[str, Any]) -> dict[str, Any]:
    """The client's view once it equals ``want``, or the last one after ``HANG_S`` (a
    loaded machine may take long)."""
    deadline = time.monotonic() + HANG_S
    while True:
        view = await _view(client, deck)
        if view == want or time.monotonic() > deadline:
            return view
        await asyncio.sleep(0.1)


async def _final(client: LanguageClient, deck: Deck) -> dict[str, Any]:
    """A fresh server's view once its first index and overlap build are out: nothing
    changes on disk, so nothing more is published."""
    await wait_for(lambda: overlap_builds(client), what="the fresh server's overlap build")
    return await _view(client, deck)


@pytest.mark.parametrize("from_mention", [False, True], ids=["on-name", "on-mention"])
async def test_f2_rename_keeps_the_skill_in_the_index(
    deck: Deck, start_server: StartServer, from_mention: bool
) -> None:
    renamed = deck.write(
        deck.project_dsh, "alpha", skill_text("alpha", "First.") + "See /beta too.\n"
    )
    beta = deck.write(deck.project_dsh, "beta", skill_text("beta", "Second.") + "Run /alpha now.\n")
    deck.write(deck.project_dsh, "zeta", skill_text("zeta", "Last.", extra="bogus: 1\n"))
    deck.write(deck.user_dsh, "alpha", skill_text("alpha", "User alpha."))
    client = await start_editor(start_server)
    editor = Editor(client)
    # F2 in the skill's own file (open), or on a mention in another one.
    where, at = (beta, pos(8, 6)) if from_mention else (renamed, pos(1, 7))
    editor.did_open(where)

    edit = await client.text_document_rename_async(
        types.RenameParams(text_document=doc_id(where), position=at, new_name="gamma")
    )
    assert edit is not None
    editor.apply(edit)
    editor.close_all()

    fresh = await start_editor(start_server)
    want = await _final(fresh, deck)
    assert "gamma" in want["catalog"]["text"]
    got = await _settled(client, deck, want)
    assert got == want
    gamma = deck.project_dsh / "gamma" / "SKILL.md"
    assert gamma.read_text(encoding="utf-8").startswith("---\nname: gamma\n")
    assert (
        (deck.project_dsh / "beta" / "SKILL.md")
        .read_text(encoding="utf-8")
        .endswith("Run /gamma now.\n")
    )
