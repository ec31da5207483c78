"""``textDocument/documentHighlight`` on a skill name: the ``name`` value (a write) and
each ``/name`` mention of it in the description and the body (reads), never one inside
code or one the engine does not take for a mention; on a mention of another skill, that
skill's mentions only; elsewhere nothing. The server runs as a subprocess over stdio
(pytest-lsp)."""

from __future__ import annotations

from pathlib import Path

from editing_fixtures import doc_id, open_doc, rng, start_editor
from lsp_harness import Deck, StartServer
from lsprotocol import types

TEXT = (
    "---\n"  # 0
    "name: 'release-notes'\n"  # 1
    "description: Drafts notes; /release-notes --dry-run previews them.\n"  # 2
    "---\n"  # 3
    "\n"  # 4
    "Run /release-notes after /changelog, then /release-notes again.\n"  # 5
    "```\n"  # 6
    "/release-notes in code is not a mention\n"  # 7
    "```\n"  # 8
    "Ask /changelog first, and `/release-notes` is code too.\n"  # 9
)

WRITE, READ = types.DocumentHighlightKind.Write, types.DocumentHighlightKind.Read


async def _highlights(
    client,
    path: Path,
    line: int,
    character: int,  # type: ignore[no-untyped-def]
) -> list[tuple[types.Range, types.DocumentHighlightKind | None]]:
    found = await client.text_document_document_highlight_async(
        types.DocumentHighlightParams(
            text_document=doc_id(path), position=types.Position(line, character)
        )
    )
    return [(h.range, h.kind) for h in found or []]


async def test_highlights_of_a_skill_name(deck: Deck, start_server: StartServer) -> None:
    path = deck.write(deck.project_dsh, "release-notes", TEXT)
    client = await start_editor(start_server)
    open_doc(client, path)
    own = [
        (rng(1, 7, 1, 20), WRITE),  # the name's text, inside its quotes
        (rng(2, 27, 2, 41), READ),  # the description's mention
        (rng(5, 4, 5, 18), READ),
        (rng(5, 42, 5, 56), READ),
    ]
    assert await _highlights(client, path, 1, 10) == own  # on the name value
    assert await _highlights(client, path, 1, 20) == own  # at its end, as LSP ranges are
    assert await _highlights(client, path, 5, 6) == own  # on a body mention
    # another skill's mention: its mentions only (no name value of this file); the
    # engine's gesture rule: `/changelog,` (a comma right after it) is no mention
    assert await _highlights(client, path, 9, 8) == [(rng(9, 4, 9, 14), READ)]
    # not a name: the key, a word, code, `/changelog,`
    for line, character in ((1, 2), (5, 1), (7, 3), (9, 30), (5, 28)):
        assert await _highlights(client, path, line, character) == [], (line, character)
