"""Rename refuses a name whose renamed skill file would have a path longer than the
file system allows (issue #32.13), in a workspace nested deep enough to reach it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from editing_fixtures import doc_id, pos, start_editor
from lsp_harness import Deck, StartServer
from lsprotocol import types
from pygls.exceptions import JsonRpcException

PATH_MAX = 4096


@pytest.fixture
def deck(tmp_path: Path) -> Deck:
    """The layered workspace, ~3,860 bytes deep: its files still fit in a path."""
    base = tmp_path
    while len(os.fsencode(base)) < 3860 - 200:
        base = base / ("d" * 199)
    base = base / ("e" * (3860 - len(os.fsencode(base)) - 1))
    base.mkdir(parents=True)
    return Deck(base)


async def test_a_renamed_path_longer_than_the_file_system_allows_is_refused(
    deck: Deck, start_server: StartServer
) -> None:
    path = deck.write(deck.project_dsh, "review")
    client = await start_editor(start_server)
    name = "r" * 250  # a name that fits, in a folder whose path then does not
    renamed = deck.project_dsh / name / "SKILL.md"
    assert len(os.fsencode(renamed)) >= PATH_MAX > len(os.fsencode(path))

    with pytest.raises(JsonRpcException) as raised:
        await client.text_document_rename_async(
            types.RenameParams(text_document=doc_id(path), position=pos(1, 8), new_name=name)
        )

    assert raised.value.code == -32803
    assert raised.value.message == (
        f"'{'r' * 20}...{'r' * 20} (250 characters)' is too long for {deck.project_dsh}: the "
        f"renamed skill file's path would be {len(os.fsencode(renamed))} bytes, and the file "
        f"system allows paths of at most {PATH_MAX - 1} bytes. Choose a shorter name."
    )
